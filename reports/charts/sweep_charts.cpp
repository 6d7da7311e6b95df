// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A sweep as charts: per (data type, op), bus bandwidth and algorithm bandwidth against size (log2 axis) for
// each placement, and time against size (log2 x, log10 y). Where the sweep timed every iteration (-I 1), the
// p50 line and the min-max band come from those times; busbw at a time t is busbw x time_us / t (nccl-tests'
// busbw = bytes x factor / time, at a fixed size). A sweep of several passes (-N), or an imported log holding
// several runs, has more than one row per size and placement: the chart draws the pass with the median time,
// so one slow pass neither hides nor fakes a dip, and says how many passes there were.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "chart_model.hpp"
#include "pf/sweep_row.hpp"

namespace pf::reports::charts {
namespace {

std::string placementName(const std::string& p) { return p == "in" ? "in-place" : "out-of-place"; }

Axis sizeAxis() { return {"message size", "bytes", Scale::kLog2, true}; }

// One row per size for one placement, in size order of first appearance: the median-time row where there are
// several (the lower middle of an even count). Also returns the most rows any size had.
std::pair<std::vector<SweepRow>, size_t> medianPass(const std::vector<SweepRow>& rows, const std::string& placement) {
  std::vector<uint64_t> order;
  std::map<uint64_t, std::vector<const SweepRow*>> bySize;
  for (const SweepRow& r : rows) {
    if (r.placement != placement) continue;
    auto& slot = bySize[r.size_bytes];
    if (slot.empty()) order.push_back(r.size_bytes);
    slot.push_back(&r);
  }
  std::vector<SweepRow> out;
  size_t passes = 0;
  for (uint64_t size : order) {
    auto& slot = bySize[size];
    std::sort(slot.begin(), slot.end(), [](const SweepRow* a, const SweepRow* b) { return a->time_us < b->time_us; });
    out.push_back(*slot[(slot.size() - 1) / 2]);
    passes = std::max(passes, slot.size());
  }
  return {out, passes};
}

}  // namespace

std::vector<Chart> sweepCharts(const Result& sweep) {
  std::vector<Chart> out;
  if (sweep.kind != Kind::kSweep) return out;
  const SweepParams params = sweepParamsFromJson(sweep.params);
  // (dtype, op) in the order the sweep ran them; rows of one pair keep their size order.
  std::vector<std::pair<std::string, std::string>> combos;
  std::map<std::pair<std::string, std::string>, std::vector<SweepRow>> rows;
  for (const Json& j : sweep.rows) {
    SweepRow r = sweepRowFromJson(j);
    auto key = std::make_pair(r.dtype, r.op);
    if (!rows.count(key)) combos.push_back(key);
    rows[key].push_back(std::move(r));
  }
  for (const auto& key : combos) {
    const std::string what = key.second == "none" ? key.first : key.first + " " + key.second;
    // The result's key ("sweep.all_reduce", "sweep.all_reduce.2" for a second imported run) keeps ids unique.
    const std::string id = fmt::format("{}.{}.{}", sweep.key, key.first, key.second);
    Chart bw{id + ".bandwidth",
             fmt::format("{} {} bandwidth", params.collective, what),
             sizeAxis(),
             {"bandwidth", "GB/s", Scale::kLinear, false},
             {}};
    Chart time{id + ".time",
               fmt::format("{} {} time", params.collective, what),
               sizeAxis(),
               {"time per operation", "us", Scale::kLog10, false},
               {}};
    for (const char* placement : {"out", "in"}) {
      const auto [picked, passes] = medianPass(rows[key], placement);
      const std::string where =
          placementName(placement) + (passes > 1 ? fmt::format(", median of {} passes", passes) : "");
      Series busbw{"busbw " + where, Style::kLine, false, {}};
      Series algbw{"algbw " + where, Style::kLine, false, {}};
      Series t{"time " + where, Style::kLine, false, {}};
      Series p50{"busbw p50 " + where, Style::kMarkers, false, {}};
      Series band{"busbw min-max " + where, Style::kBand, false, {}};
      Series tBand{"time min-max " + where, Style::kBand, false, {}};
      for (const SweepRow& r : picked) {
        const double x = static_cast<double>(r.size_bytes);
        busbw.points.push_back({x, r.busbw_gbps, {}, {}});
        algbw.points.push_back({x, r.algbw_gbps, {}, {}});
        t.points.push_back({x, r.time_us, {}, {}});
        if (r.iter_p50_us && *r.iter_p50_us > 0)
          p50.points.push_back({x, r.busbw_gbps * r.time_us / *r.iter_p50_us, {}, {}});
        if (r.iter_min_us && r.iter_max_us && *r.iter_min_us > 0 && *r.iter_max_us > 0) {
          // The fastest iteration gives the highest bandwidth.
          band.points.push_back(
              {x, r.busbw_gbps, r.busbw_gbps * r.time_us / *r.iter_max_us, r.busbw_gbps * r.time_us / *r.iter_min_us});
          tBand.points.push_back({x, r.time_us, *r.iter_min_us, *r.iter_max_us});
        }
      }
      for (Series* s : {&busbw, &p50, &band, &algbw})
        if (!s->points.empty()) bw.series.push_back(std::move(*s));
      for (Series* s : {&t, &tBand})
        if (!s->points.empty()) time.series.push_back(std::move(*s));
    }
    out.push_back(std::move(bw));
    out.push_back(std::move(time));
  }
  return out;
}

}  // namespace pf::reports::charts

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A sweep as charts, per (data type, op): first the figure people quote, one line per run (busbw out-of-place
// against size, log2 axis; time out-of-place against size, log10), then, as secondary charts, the rest (busbw
// in-place, algbw both ways, the iteration p50; time in-place), so that a 2-rank sweep is not 8 lines where
// algbw duplicates busbw. Where the sweep timed every iteration (-I 1), each point's error bar is the fastest
// to the slowest iteration; busbw at a time t is busbw x time_us / t (nccl-tests' busbw = bytes x factor /
// time, at a fixed size). Several sweep results of one collective (`report a.json b.json`, an imported log
// holding several runs) are overlaid, one line per run named by its result key. A sweep of several passes (-N), or an
// imported log holding several runs, has more than one row per size and placement: the chart draws the pass with the
// median time, so one slow pass neither hides nor fakes a dip, and says how many passes there were.
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

// The series of one run and one placement; `prefix` names the run where several share a chart.
struct PlacementSeries {
  Series busbw, algbw, p50, time;
};

PlacementSeries placementSeries(const std::vector<SweepRow>& rows, const std::string& placement,
                                const std::string& prefix) {
  const auto [picked, passes] = medianPass(rows, placement);
  const std::string where = placementName(placement) + (passes > 1 ? fmt::format(", median of {} passes", passes) : "");
  PlacementSeries s{{prefix + "busbw " + where, Style::kLine, false, {}},
                    {prefix + "algbw " + where, Style::kLine, false, {}},
                    {prefix + "busbw p50 " + where, Style::kMarkers, false, {}},
                    {prefix + "time " + where, Style::kLine, false, {}}};
  for (const SweepRow& r : picked) {
    const double x = static_cast<double>(r.size_bytes);
    Point bw{x, r.busbw_gbps, {}, {}}, t{x, r.time_us, {}, {}};
    if (r.iter_min_us && r.iter_max_us && *r.iter_min_us > 0 && *r.iter_max_us > 0) {
      // The fastest iteration gives the highest bandwidth.
      bw.low = r.busbw_gbps * r.time_us / *r.iter_max_us;
      bw.high = r.busbw_gbps * r.time_us / *r.iter_min_us;
      t.low = *r.iter_min_us;
      t.high = *r.iter_max_us;
    }
    s.busbw.points.push_back(bw);
    s.time.points.push_back(t);
    s.algbw.points.push_back({x, r.algbw_gbps, {}, {}});
    if (r.iter_p50_us && *r.iter_p50_us > 0)
      s.p50.points.push_back({x, r.busbw_gbps * r.time_us / *r.iter_p50_us, {}, {}});
  }
  return s;
}

void addIfDrawn(Chart& c, Series&& s) {
  if (!s.points.empty()) c.series.push_back(std::move(s));
}

}  // namespace

std::vector<Chart> sweepCharts(const std::vector<const Result*>& runs) {
  std::vector<Chart> out;
  // (dtype, op) in the order the runs ran them; rows of one pair keep their size order.
  std::vector<std::pair<std::string, std::string>> combos;
  std::vector<std::map<std::pair<std::string, std::string>, std::vector<SweepRow>>> rows;
  for (const Result* run : runs) {
    auto& mine = rows.emplace_back();
    if (run->kind != Kind::kSweep) continue;
    for (const Json& j : run->rows) {
      SweepRow r = sweepRowFromJson(j);
      auto key = std::make_pair(r.dtype, r.op);
      if (std::find(combos.begin(), combos.end(), key) == combos.end()) combos.push_back(key);
      mine[key].push_back(std::move(r));
    }
  }
  if (combos.empty()) return out;
  const SweepParams params = sweepParamsFromJson(runs.front()->params);
  for (const auto& key : combos) {
    const std::string what =
        params.collective + " " + (key.second == "none" ? key.first : key.first + " " + key.second);
    // The first run's key ("sweep.all_reduce", "sweep.all_reduce.2" for a second imported run) keeps ids unique.
    const std::string id = fmt::format("{}.{}.{}", runs.front()->key, key.first, key.second);
    const Axis bwAxis{"bus bandwidth", "GB/s", Scale::kLinear, false};
    const Axis timeAxis{"time per operation", "us", Scale::kLog10, false};
    Chart bw{id + ".bandwidth", what + ": bus bandwidth", sizeAxis(), bwAxis, {}};
    Chart time{id + ".time", what + ": time per operation", sizeAxis(), timeAxis, {}};
    Chart moreBw{id + ".bandwidth.more",
                 what + ": in-place, algbw and iteration p50",
                 sizeAxis(),
                 {"bandwidth", "GB/s", Scale::kLinear, false},
                 {}};
    Chart moreTime{id + ".time.more", what + ": in-place time", sizeAxis(), timeAxis, {}};
    moreBw.secondary = moreTime.secondary = true;
    for (size_t i = 0; i < runs.size(); ++i) {
      auto it = rows[i].find(key);
      if (it == rows[i].end()) continue;
      const std::string prefix = runs.size() > 1 ? runs[i]->key + ": " : "";
      PlacementSeries outOf = placementSeries(it->second, "out", prefix);
      PlacementSeries in = placementSeries(it->second, "in", prefix);
      // A run that had no out-of-place half shows its in-place one in the main charts.
      PlacementSeries& main = outOf.busbw.points.empty() ? in : outOf;
      PlacementSeries& other = &main == &in ? outOf : in;
      addIfDrawn(bw, std::move(main.busbw));
      addIfDrawn(time, std::move(main.time));
      for (Series* s : {&other.busbw, &main.algbw, &other.algbw, &main.p50, &other.p50})
        addIfDrawn(moreBw, std::move(*s));
      addIfDrawn(moreTime, std::move(other.time));
    }
    for (Chart* c : {&bw, &time, &moreBw, &moreTime})
      if (!c->series.empty()) out.push_back(std::move(*c));
  }
  for (Chart& c : out) fitAxes(c);
  return out;
}

std::vector<Chart> sweepCharts(const Result& sweep) { return sweepCharts(std::vector<const Result*>{&sweep}); }

}  // namespace pf::reports::charts

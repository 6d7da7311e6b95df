// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Sweeps compared size by size (see compare.hpp for the rules). busbw at the median iteration is nccl-tests'
// busbw scaled by mean time / median time: at one size busbw is bytes x factor / time.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "charts/chart_model.hpp"
#include "compare.hpp"
#include "pf/sweep_row.hpp"

namespace pf::reports::compare {
namespace {

struct SizePoint {
  double timeUs = 0, busbw = 0, algbw = 0;
};

// "float sum" -> size -> the fastest of its rows: both placements, every pass (-N)
using Series = std::map<std::string, std::map<uint64_t, SizePoint>>;

bool allHaveP50(const Result& r) {
  for (const Json& j : r.rows)
    if (!j.contains("iter_p50_us") || !j.at("iter_p50_us").is_number()) return false;
  return !r.rows.empty();
}

Series bySize(const Result& r, bool useP50) {
  Series out;
  for (const Json& j : r.rows) {
    const SweepRow row = sweepRowFromJson(j);
    double t = useP50 ? *row.iter_p50_us : row.time_us;
    if (t <= 0) continue;
    const double scale = row.time_us > 0 ? row.time_us / t : 1;
    const SizePoint p{t, row.busbw_gbps * scale, row.algbw_gbps * scale};
    auto& slot = out[row.dtype + " " + row.op];
    auto it = slot.find(row.size_bytes);
    if (it == slot.end() || p.timeUs < it->second.timeUs) slot[row.size_bytes] = p;
  }
  return out;
}

}  // namespace

Outcome compareSweep(const Result& base, const Result& next, const CompareOptions& o) {
  const bool p50 = allHaveP50(base) && allHaveP50(next);
  const Series b = bySize(base, p50), n = bySize(next, p50);
  const int passes = std::min(sweepParamsFromJson(base.params).cycles, sweepParamsFromJson(next.params).cycles);
  Outcome out{{}, o.thresholdPct, p50 ? "median iteration" : "mean time"};
  if (passes > 1) out.basis += fmt::format(", fastest of {} passes", passes);
  for (const auto& [subject, sizes] : b) {
    auto other = n.find(subject);
    if (other == n.end() || sizes.empty()) continue;
    // The base run's bandwidth-delay product: its peak algbw times its smallest size's time.
    double peakAlgbw = 0;
    for (const auto& [size, p] : sizes) peakAlgbw = std::max(peakAlgbw, p.algbw);
    const double bdpBytes = peakAlgbw * 1e3 * sizes.begin()->second.timeUs;  // GB/s x us = 1e3 bytes
    std::vector<double> speedChanges;                                        // + = faster, for the noise estimate
    for (const auto& [size, p] : sizes)
      if (auto q = other->second.find(size); q != other->second.end())
        speedChanges.push_back(changePct(q->second.timeUs, p.timeUs));
    const double limit = noiseLimitPct(speedChanges, o);
    out.limitPct = std::max(out.limitPct, limit);
    for (const auto& [size, p] : sizes) {
      auto q = other->second.find(size);
      if (q == other->second.end()) continue;
      ComparisonRow r;
      r.subject = subject;
      r.x = static_cast<double>(size);
      r.item = reports::charts::binarySize(r.x);
      r.limit_pct = limit;
      r.base_busbw_gbps = p.busbw;
      r.new_busbw_gbps = q->second.busbw;
      const bool bandwidthBound = p.busbw > 0 && static_cast<double>(size) >= 4 * bdpBytes;
      r.bound = bandwidthBound ? "bandwidth" : "latency";
      if (bandwidthBound) {
        r.metric = "busbw_gbps";
        r.base = p.busbw;
        r.value = q->second.busbw;
        r.change_pct = changePct(r.base, r.value);
        r.regressed = -r.change_pct > limit;
      } else {
        r.metric = "time_us";
        r.higher_is_better = false;
        r.base = p.timeUs;
        r.value = q->second.timeUs;
        r.change_pct = changePct(r.base, r.value);
        const bool beyond = r.change_pct > limit;
        r.regressed = beyond && r.value - r.base > o.latencySlackUs;
        if (beyond && !r.regressed) r.note = fmt::format("within {:g} us", o.latencySlackUs);
      }
      out.rows.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace pf::reports::compare

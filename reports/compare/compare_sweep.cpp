// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Sweeps compared size by size (see compare.hpp for the rules), on the figures the sweep's table printed:
// the mean time over the timed iterations and the busbw derived from it, as nccl-tests prints them, never a
// median the user did not see.
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
  bool outOfPlace = false;
};

// "float sum" -> size -> the figure compared: out-of-place, the first columns of the table and the ones
// nccl-tests users quote (in-place only where a size has no out-of-place row); with -N, the fastest pass.
using Series = std::map<std::string, std::map<uint64_t, SizePoint>>;

Series bySize(const Result& r) {
  Series out;
  for (const Json& j : r.rows) {
    const SweepRow row = sweepRowFromJson(j);
    if (row.time_us <= 0) continue;
    const SizePoint p{row.time_us, row.busbw_gbps, row.algbw_gbps, row.placement == "out"};
    auto& slot = out[row.dtype + " " + row.op];
    auto it = slot.find(row.size_bytes);
    const bool better = it == slot.end() || (p.outOfPlace && !it->second.outOfPlace) ||
                        (p.outOfPlace == it->second.outOfPlace && p.timeUs < it->second.timeUs);
    if (better) slot[row.size_bytes] = p;
  }
  return out;
}

}  // namespace

Outcome compareSweep(const Result& base, const Result& next, const CompareOptions& o) {
  const Series b = bySize(base), n = bySize(next);
  const int passes = std::min(sweepParamsFromJson(base.params).cycles, sweepParamsFromJson(next.params).cycles);
  Outcome out{{}, o.thresholdPct, "out-of-place mean time and busbw, as printed"};
  if (passes > 1) out.basis += fmt::format(", fastest of {} passes", passes);
  for (const auto& [subject, sizes] : b) {
    auto other = n.find(subject);
    if (other == n.end() || sizes.empty()) continue;
    // The base run's bandwidth-delay product: its peak algbw times its latency, the least time of any size
    // (a mean can carry one slow iteration, and the smallest size's alone would then misplace the boundary).
    double peakAlgbw = 0, latencyUs = sizes.begin()->second.timeUs;
    for (const auto& [size, p] : sizes) {
      peakAlgbw = std::max(peakAlgbw, p.algbw);
      latencyUs = std::min(latencyUs, p.timeUs);
    }
    const double bdpBytes = peakAlgbw * 1e3 * latencyUs;  // GB/s x us = 1e3 bytes
    std::vector<double> speedChanges;                     // + = faster, for the noise estimate
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

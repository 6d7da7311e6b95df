// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "baseline.hpp"

#include <fmt/format.h>

#include <map>

#include "pf/sweep_row.hpp"
#include "pf/units.hpp"

namespace pf::check {
namespace {

std::string pairKey(const std::string& a, const std::string& b) { return a < b ? a + "-" + b : b + "-" + a; }

Finding regression(const std::string& what, double before, double now, double pct, double limit) {
  Finding f;
  f.check = "baseline.regression";
  f.message = fmt::format("{}: {:.3f} GB/s now, {:.3f} GB/s in the baseline ({:.0f}% lower; limit {:.0f}%)", what, now,
                          before, pct, limit);
  f.remedy =
      "compare the two documents with `preflight report`; if the hardware changed on purpose, record a new "
      "baseline, otherwise look for the change (firmware, cabling, driver, settings) on the named nodes";
  f.evidence.push_back({what + ", baseline", before, "GB/s", "--baseline document"});
  f.evidence.push_back({what + ", now", now, "GB/s", "this run"});
  f.evidence.push_back({what + ", drop", pct, "%", "baseline vs this run"});
  return f;
}

}  // namespace

std::vector<Finding> compareWithBaseline(const RunReport& baseline, const std::vector<PairRow>& pairs,
                                         const Result* allreduce, double boundBytes, double regressionPercent) {
  std::vector<Finding> out;
  std::map<std::string, double> basePairs;
  std::map<uint64_t, double> baseSizes;
  for (const Result& r : baseline.results) {
    if (r.kind == Kind::kPairs)
      for (const Json& row : r.rows) {
        PairRow p = pairRowFromJson(row);
        basePairs[pairKey(p.host_a, p.host_b)] = p.bwGbps();
      }
    if (r.kind == Kind::kSweep && r.key == "sweep.all_reduce")
      for (const Json& j : r.rows) {
        const SweepRow row = sweepRowFromJson(j);
        if (row.placement == "out") baseSizes[row.size_bytes] = row.busbw_gbps;
      }
  }
  for (const PairRow& p : pairs) {
    auto it = basePairs.find(pairKey(p.host_a, p.host_b));
    if (it == basePairs.end() || it->second <= 0) continue;
    const double drop = 100.0 * (it->second - p.bwGbps()) / it->second;
    if (drop > regressionPercent) {
      Finding f = regression("pair " + it->first, it->second, p.bwGbps(), drop, regressionPercent);
      f.hosts = {p.host_a, p.host_b};
      out.push_back(std::move(f));
    }
  }
  if (allreduce) {
    for (const Json& j : allreduce->rows) {
      const SweepRow row = sweepRowFromJson(j);
      if (row.placement != "out") continue;
      auto it = baseSizes.find(row.size_bytes);
      if (static_cast<double>(row.size_bytes) < boundBytes || it == baseSizes.end() || it->second <= 0) continue;
      const double now = row.busbw_gbps;
      const double drop = 100.0 * (it->second - now) / it->second;
      if (drop > regressionPercent)
        out.push_back(regression(fmt::format("all_reduce busbw at {}", Bytes{row.size_bytes}), it->second, now, drop,
                                 regressionPercent));
    }
  }
  return out;
}

}  // namespace pf::check

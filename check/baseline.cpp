// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "baseline.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "pf/run_setup.hpp"
#include "pf/sweep_row.hpp"
#include "pf/units.hpp"

namespace pf::check {
namespace {

std::string pairKey(const std::string& a, const std::string& b) { return a < b ? a + "-" + b : b + "-" + a; }

// A size is matched with the baseline's row of the same data type, op and size.
using SizeKey = std::tuple<std::string, std::string, uint64_t>;

struct Drop {
  Finding finding;
  double pct = 0;
};

Finding regression(const std::string& what, double before, double now, double pct, double limit) {
  Finding f;
  f.check = "baseline.regression";
  f.message = fmt::format("{}: {:.3f} GB/s now, {:.3f} GB/s in the baseline ({:.0f}% lower; limit {:.0f}%)", what, now,
                          before, pct, limit);
  f.remedy =
      "compare the two documents with `preflight compare`; if the hardware changed on purpose, record a new "
      "baseline, otherwise look for the change (firmware, cabling, driver, settings) on the named nodes";
  f.evidence.push_back({what + ", baseline", before, "GB/s", "--baseline document"});
  f.evidence.push_back({what + ", now", now, "GB/s", "this run"});
  f.evidence.push_back({what + ", drop", pct, "%", "baseline vs this run"});
  return f;
}

// The differences that make the baseline's all-reduce figures not this run's: a different world size or node
// count (busbw and times depend on both), another backend, or no data type or op in common. The all-reduce is
// then not judged against the baseline, with a warning saying why; pairs are per pair and matched by host
// names, so they are judged whatever the world size. Empty: the all-reduce is comparable.
std::vector<std::string> allReduceNotComparable(const RunReport& baseline, const Context& now, const Result& sweep) {
  RunReport mine;
  mine.context = now;
  mine.results.push_back(sweep);
  mine.results.back().kind = Kind::kSweep;
  std::vector<std::string> out;
  for (const SetupDifference& d : setupDifferences(runSetupOf(baseline), runSetupOf(mine)))
    if (d.what == "world size" || d.what == "node count" || d.what == "backend" || d.nothingInCommon)
      out.push_back(describe(d));
  return out;
}

}  // namespace

std::vector<Finding> compareWithBaseline(const RunReport& baseline, const Context& now,
                                         const std::vector<PairRow>& pairs, const Result* allreduce, double boundBytes,
                                         double regressionPercent) {
  std::vector<Finding> out;
  std::vector<Drop> drops;
  std::map<std::string, double> basePairs;
  std::map<SizeKey, double> baseSizes;
  for (const Result& r : baseline.results) {
    if (r.kind == Kind::kPairs)
      for (const Json& row : r.rows) {
        PairRow p = pairRowFromJson(row);
        basePairs[pairKey(p.host_a, p.host_b)] = p.bwGbps();
      }
    // The out-of-place busbw: the figure the check's table printed (from the mean time, as nccl-tests).
    if (r.kind == Kind::kSweep && r.key == "sweep.all_reduce")
      for (const Json& j : r.rows) {
        const SweepRow row = sweepRowFromJson(j);
        if (row.placement == "out") baseSizes[{row.dtype, row.op, row.size_bytes}] = row.busbw_gbps;
      }
  }
  for (const PairRow& p : pairs) {
    auto it = basePairs.find(pairKey(p.host_a, p.host_b));
    if (it == basePairs.end() || it->second <= 0) continue;
    const double drop = 100.0 * (it->second - p.bwGbps()) / it->second;
    if (drop > regressionPercent) {
      Finding f = regression("pair " + it->first, it->second, p.bwGbps(), drop, regressionPercent);
      f.hosts = {p.host_a, p.host_b};
      drops.push_back({std::move(f), drop});
    }
  }
  const std::vector<std::string> differs =
      allreduce && !baseSizes.empty() ? allReduceNotComparable(baseline, now, *allreduce) : std::vector<std::string>{};
  if (!differs.empty()) {
    Finding f;
    f.check = "baseline.setup";
    f.status = Status::kWarn;
    f.message = fmt::format(
        "the all-reduce is not compared with the baseline: {} (baseline vs this run); busbw depends on them, so "
        "a change would not be a regression{}",
        fmt::join(differs, ", "), basePairs.empty() ? "" : "; pairs are compared by host names");
    f.remedy = "record a baseline with the same number of ranks and nodes (and backend) as this run";
    out.push_back(std::move(f));
  } else if (allreduce) {
    for (const Json& j : allreduce->rows) {
      const SweepRow row = sweepRowFromJson(j);
      if (row.placement != "out") continue;
      auto it = baseSizes.find({row.dtype, row.op, row.size_bytes});
      if (static_cast<double>(row.size_bytes) < boundBytes || it == baseSizes.end() || it->second <= 0) continue;
      const double now = row.busbw_gbps;
      const double drop = 100.0 * (it->second - now) / it->second;
      if (drop > regressionPercent)
        drops.push_back({regression(fmt::format("all_reduce busbw at {}", Bytes{row.size_bytes}), it->second, now, drop,
                                    regressionPercent),
                         drop});
    }
  }
  // The worst regression first: the summary names the first failing finding.
  std::stable_sort(drops.begin(), drops.end(), [](const Drop& a, const Drop& b) { return a.pct > b.pct; });
  for (Drop& d : drops) out.push_back(std::move(d.finding));
  return out;
}

}  // namespace pf::check

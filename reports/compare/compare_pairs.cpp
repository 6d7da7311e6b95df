// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Pair matrices compared pair by pair, matched by host names (node indices change with the allocation):
// bandwidth is the slower direction, as the pair test judges it; latency is judged with the sweep's slack.
#include <fmt/format.h>

#include <map>

#include "compare.hpp"
#include "pf/pair_row.hpp"

namespace pf::reports::compare {
namespace {

std::map<std::string, PairRow> byHosts(const Result& r) {
  std::map<std::string, PairRow> out;
  for (const Json& j : r.rows) {
    const PairRow p = pairRowFromJson(j);
    const bool ordered = p.host_a <= p.host_b;
    out[ordered ? p.host_a + "-" + p.host_b : p.host_b + "-" + p.host_a] = p;
  }
  return out;
}

}  // namespace

Outcome comparePairs(const Result& base, const Result& next, const CompareOptions& o) {
  const auto b = byHosts(base), n = byHosts(next);
  std::vector<double> bwChanges, latChanges;
  for (const auto& [hosts, p] : b)
    if (auto q = n.find(hosts); q != n.end()) {
      bwChanges.push_back(changePct(p.bwGbps(), q->second.bwGbps()));
      latChanges.push_back(-changePct(p.lat_us, q->second.lat_us));
    }
  const double bwLimit = noiseLimitPct(bwChanges, o), latLimit = noiseLimitPct(latChanges, o);
  Outcome out{{}, std::max(bwLimit, latLimit), "best of the pair's measurements"};
  for (const auto& [hosts, p] : b) {
    auto q = n.find(hosts);
    if (q == n.end()) continue;
    ComparisonRow bw;
    bw.subject = "bandwidth";
    bw.item = hosts;
    bw.metric = "bw_gbps";
    bw.base = p.bwGbps();
    bw.value = q->second.bwGbps();
    bw.change_pct = changePct(bw.base, bw.value);
    bw.limit_pct = bwLimit;
    bw.regressed = -bw.change_pct > bwLimit;
    out.rows.push_back(bw);

    ComparisonRow lat;
    lat.subject = "latency";
    lat.item = hosts;
    lat.metric = "lat_us";
    lat.higher_is_better = false;
    lat.base = p.lat_us;
    lat.value = q->second.lat_us;
    lat.change_pct = changePct(lat.base, lat.value);
    lat.limit_pct = latLimit;
    const bool beyond = lat.change_pct > latLimit;
    lat.regressed = beyond && lat.value - lat.base > o.latencySlackUs;
    if (beyond && !lat.regressed) lat.note = fmt::format("within {:g} us", o.latencySlackUs);
    out.rows.push_back(lat);
  }
  return out;
}

}  // namespace pf::reports::compare

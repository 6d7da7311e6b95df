// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Check documents and run records built by hand for the history's tests: the same shapes `preflight check`
// writes (findings as results of kind check with params.hosts, the pairs result's PairRow rows).
#pragma once

#include <string>
#include <vector>

#include "history_record.hpp"
#include "pf/pair_row.hpp"
#include "pf/sweep_row.hpp"

namespace pf::history::testing {

inline Result finding(const std::vector<std::string>& hosts, const std::string& check, Status status) {
  Result r;
  r.key = "check." + check;
  r.kind = Kind::kCheck;
  r.status = status;
  r.message = check + " on " + hosts.front();
  r.remedy = "fix " + hosts.front();
  r.params["hosts"] = hosts;
  std::string joined;
  for (const std::string& h : hosts) joined += (joined.empty() ? "" : ",") + h;
  r.host = joined;
  return r;
}

inline Json pairRow(const std::string& a, const std::string& b, double ab, double ba, double lat) {
  PairRow p;
  p.host_a = a;
  p.host_b = b;
  p.bw_a_to_b_gbps = ab;
  p.bw_b_to_a_gbps = ba;
  p.lat_us = lat;
  return toJson(p);
}

inline Json sweepRow(uint64_t size, double busbw, const char* placement = "out") {
  SweepRow r;
  r.collective = "all_reduce";
  r.size_bytes = size;
  r.dtype = "float";
  r.op = "sum";
  r.placement = placement;
  r.busbw_gbps = busbw;
  return toJson(r);
}

/// A run of one node per host with the given verdicts and pair medians (nullopt: none).
inline RunRecord run(int64_t id, const std::vector<std::pair<std::string, Status>>& verdicts,
                     const std::vector<std::optional<double>>& medians = {}) {
  RunRecord r;
  r.id = id;
  r.started = "2026-12-0" + std::to_string(id) + "T00:00:00Z";
  for (size_t i = 0; i < verdicts.size(); ++i) {
    NodeRecord n;
    n.host = verdicts[i].first;
    n.verdict = verdicts[i].second;
    if (i < medians.size()) n.pairMedianGbps = medians[i];
    r.nodes.push_back(n);
  }
  r.hostCount = static_cast<int>(verdicts.size());
  return r;
}

}  // namespace pf::history::testing

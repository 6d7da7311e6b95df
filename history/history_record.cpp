// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "history_record.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "pf/error.hpp"
#include "pf/pair_row.hpp"
#include "pf/stats.hpp"
#include "pf/sweep_row.hpp"

namespace pf::history {

bool failedCheck(Status s) { return s == Status::kFail || s == Status::kTimeout || s == Status::kError; }

namespace {

// The hosts a finding names: params.hosts where the result has it (findingsToResults writes it), else its host.
std::vector<std::string> namedHosts(const Result& r) {
  std::vector<std::string> hosts;
  if (r.params.is_object() && r.params.contains("hosts") && r.params["hosts"].is_array()) {
    for (const Json& h : r.params["hosts"])
      if (h.is_string()) hosts.push_back(h.get<std::string>());
  } else if (!r.host.empty()) {
    hosts.push_back(r.host);
  }
  return hosts;
}

// Whether a status decides a verdict: skipped and absent are information (pf/verdict.hpp).
bool counts(Status s) { return s != Status::kSkipped && s != Status::kAbsent; }

// The busbw of an all-reduce sweep at its largest size (out-of-place rows, the best of any cycles).
std::optional<double> largestSizeBusbw(const Result& sweep) {
  std::optional<double> best;
  uint64_t size = 0;
  for (const Json& j : sweep.rows) {
    const SweepRow row = sweepRowFromJson(j);
    if (row.placement != "out") continue;
    if (row.size_bytes > size) {
      size = row.size_bytes;
      best = row.busbw_gbps;
    } else if (row.size_bytes == size && best && row.busbw_gbps > *best) {
      best = row.busbw_gbps;
    }
  }
  return best;
}

}  // namespace

RunRecord recordFromReport(const RunReport& report) {
  if (report.context.command != "check")
    throw UsageError(fmt::format("the history keeps `preflight check` runs; this document is of `preflight {}`",
                                 report.context.command));
  RunRecord run;
  run.started = report.context.start_time;
  run.ended = report.context.end_time;
  run.commandLine = fmt::format("{}", fmt::join(report.context.argv, " "));
  run.verdict = report.verdict;
  run.exitCode = report.exit_code;
  run.version = report.context.version;

  // Every host the document names, in the order it first names them.
  std::vector<std::string> hosts;
  auto addHost = [&](const std::string& h) {
    if (!h.empty() && std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  };
  for (const Result& r : report.results) {
    if (r.kind == Kind::kProbe) addHost(r.host);
    if (r.kind == Kind::kPairs)
      for (const Json& j : r.rows) {
        const PairRow row = pairRowFromJson(j);
        addHost(row.host_a);
        addHost(row.host_b);
        run.pairs.push_back({row.host_a, row.host_b, row.bw_a_to_b_gbps, row.bw_b_to_a_gbps, row.lat_us});
      }
    if (r.kind == Kind::kCheck)
      for (const std::string& h : namedHosts(r)) addHost(h);
    if (r.kind == Kind::kSweep && r.key == "sweep.all_reduce") run.allReduceBusbwGbps = largestSizeBusbw(r);
  }
  if (hosts.empty() && report.context.node_count <= 1) addHost(report.context.hostname);
  run.hostCount = std::max(static_cast<int>(hosts.size()), report.context.node_count);

  std::map<std::string, NodeRecord> nodes;
  for (const std::string& h : hosts) nodes[h].host = h;
  for (const Result& r : report.results) {
    if (r.kind != Kind::kCheck) continue;
    const std::vector<std::string> named = namedHosts(r);
    run.findings.push_back({fmt::format("{}", fmt::join(named, ",")), r.key, r.status, r.message, r.remedy});
    for (const std::string& h : named) {
      NodeRecord& n = nodes[h];
      ++n.findings;
      if (counts(r.status)) n.verdict = worst(n.verdict, r.status);
    }
  }
  for (const std::string& h : hosts) {
    NodeRecord n = nodes[h];
    std::vector<double> bw;
    for (const PairRecord& p : run.pairs)
      if (p.hostA == h || p.hostB == h) bw.push_back(p.bwGbps());
    if (!bw.empty()) n.pairMedianGbps = stats::median(bw);
    if (hosts.size() == 1) n.allReduceBusbwGbps = run.allReduceBusbwGbps;
    run.nodes.push_back(n);
  }
  return run;
}

}  // namespace pf::history

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "history_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "history_queries.hpp"
#include "pf/error.hpp"
#include "pf/units.hpp"

namespace pf::history {

namespace {

Json optionalNumber(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Result historyResult(const std::string& key) {
  Result r;
  r.key = key;
  r.kind = Kind::kCheck;
  return r;
}

Result runsResult(const std::vector<RunRecord>& runs, int last) {
  Result r = historyResult("history.runs");
  const size_t first = last > 0 && runs.size() > static_cast<size_t>(last) ? runs.size() - last : 0;
  for (size_t i = first; i < runs.size(); ++i) {
    const RunRecord& x = runs[i];
    r.rows.push_back({{"run", x.id},
                      {"started", x.started},
                      {"ended", x.ended},
                      {"hosts", x.hostCount},
                      {"verdict", toString(x.verdict)},
                      {"exit_code", x.exitCode},
                      {"failed_nodes", std::count_if(x.nodes.begin(), x.nodes.end(),
                                                     [](const NodeRecord& n) { return failedCheck(n.verdict); })},
                      {"findings", x.findings.size()},
                      {"allreduce_busbw_gbps", optionalNumber(x.allReduceBusbwGbps)},
                      {"command_line", x.commandLine},
                      {"preflight_version", x.version}});
  }
  r.params["last"] = last;
  r.metrics["runs"] = runs.size();
  r.message = runs.empty() ? "no runs recorded"
                           : fmt::format("{} from {} to {}{}", counted(static_cast<long long>(runs.size()), "run"),
                                         runs.front().started, runs.back().started,
                                         first > 0 ? fmt::format(" (the last {} listed)", runs.size() - first) : "");
  return r;
}

Result flappingResult(const std::vector<RunRecord>& runs, const HistoryOptions& o) {
  Result r = historyResult("history.flapping");
  r.params = {{"k", o.failedK}, {"n", o.failedN}};
  std::vector<std::string> named;
  for (const FlappingNode& f : flappingNodes(runs, o.failedK, o.failedN)) {
    r.rows.push_back({{"host", f.host},
                      {"failed", f.failed},
                      {"checks", f.checks},
                      {"pattern", f.pattern},
                      {"failed_runs", f.failedRuns}});
    named.push_back(f.host);
  }
  if (named.empty()) {
    r.message = fmt::format("no node failed {} of its last {} checks", o.failedK, o.failedN);
  } else {
    r.status = Status::kWarn;
    r.message = fmt::format("{} failed at least {} of {} last {} checks: {}",
                            counted(static_cast<long long>(named.size()), "node"), o.failedK,
                            named.size() == 1 ? "its" : "their", o.failedN, fmt::join(named, ", "));
    r.remedy = "drain the node and read its findings run by run (preflight history FILE --node HOST)";
    r.params["hosts"] = named;
  }
  return r;
}

Result regressionsResult(const std::vector<RunRecord>& runs, const HistoryOptions& o) {
  Result r = historyResult("history.regressions");
  r.params = {{"drop_percent", o.dropPercent}, {"min_earlier", o.minEarlier}};
  std::vector<std::string> named, hosts;
  for (const Regression& g : regressions(runs, o.dropPercent, o.minEarlier)) {
    r.rows.push_back({{"host", g.host},
                      {"peer", g.peer.empty() ? Json(nullptr) : Json(g.peer)},
                      {"figure", g.figure},
                      {"value_gbps", g.valueGbps},
                      {"earlier_median_gbps", g.earlierMedianGbps},
                      {"drop_percent", g.dropPercent},
                      {"run", g.run},
                      {"started", g.started},
                      {"earlier_runs", g.earlierRuns},
                      {"latest_gbps", g.latestGbps},
                      {"still_below", g.stillBelow}});
    named.push_back(g.peer.empty() ? g.host : g.host + "-" + g.peer);
    for (const std::string& h : {g.host, g.peer})
      if (!h.empty() && std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  }
  if (named.empty()) {
    r.message =
        fmt::format("no figure fell more than {}% below its earlier median", fmt::format("{:g}", o.dropPercent));
  } else {
    r.status = Status::kWarn;
    r.message = fmt::format("{} fell more than {}% below {} earlier median: {}",
                            counted(static_cast<long long>(named.size()), "figure"), fmt::format("{:g}", o.dropPercent),
                            named.size() == 1 ? "its" : "their", fmt::join(named, ", "));
    r.params["hosts"] = hosts;
    r.remedy =
        "compare the run it was first seen in with the one before (preflight compare), and test the node's "
        "links and cables";
  }
  return r;
}

Result bandwidthResult(const std::vector<RunRecord>& runs, const std::string& node) {
  Result r = historyResult("history.bandwidth");
  r.params["node"] = node.empty() ? Json(nullptr) : Json(node);
  for (const NodePoint& p : nodeSeries(runs, node))
    r.rows.push_back({{"run", p.run},
                      {"started", p.started},
                      {"host", p.host},
                      {"verdict", toString(p.verdict)},
                      {"pair_median_gbps", optionalNumber(p.pairMedianGbps)},
                      {"allreduce_busbw_gbps", optionalNumber(p.allReduceBusbwGbps)}});
  r.message = fmt::format("{} by run{}", counted(static_cast<long long>(r.rows.size()), "node figure"),
                          node.empty() ? "" : " of " + node);
  return r;
}

// One node's findings run by run, including the links it is part of.
Result nodeFindingsResult(const std::vector<RunRecord>& runs, const std::string& node) {
  Result r = historyResult("history.node_findings");
  r.params["node"] = node;
  for (const RunRecord& run : runs)
    for (const FindingRecord& f : run.findings) {
      const std::string padded = "," + f.host + ",";
      if (padded.find("," + node + ",") == std::string::npos) continue;
      r.rows.push_back({{"run", run.id},
                        {"started", run.started},
                        {"hosts", f.host},
                        {"check", f.check},
                        {"status", toString(f.status)},
                        {"message", f.message},
                        {"remedy", f.remedy}});
    }
  r.message = fmt::format("{} naming {}", counted(static_cast<long long>(r.rows.size()), "finding"), node);
  return r;
}

}  // namespace

RunReport historyReport(const std::vector<RunRecord>& runs, const HistoryOptions& options) {
  if (!options.node.empty()) {
    const bool known = std::any_of(runs.begin(), runs.end(), [&](const RunRecord& run) {
      return std::any_of(run.nodes.begin(), run.nodes.end(),
                         [&](const NodeRecord& n) { return n.host == options.node; });
    });
    if (!known) throw UsageError(fmt::format("--node {}: no run in the history names this node", options.node));
  }
  RunReport report;
  report.context.command = "history";
  // The nodes the history names (at least 1, as every document's node_count).
  std::vector<std::string> hosts;
  for (const RunRecord& run : runs)
    for (const NodeRecord& n : run.nodes)
      if (std::find(hosts.begin(), hosts.end(), n.host) == hosts.end()) hosts.push_back(n.host);
  report.context.node_count = std::max<int>(1, static_cast<int>(hosts.size()));
  report.results.push_back(runsResult(runs, options.lastRuns));
  report.results.push_back(flappingResult(runs, options));
  report.results.push_back(regressionsResult(runs, options));
  report.results.push_back(bandwidthResult(runs, options.node));
  if (!options.node.empty()) report.results.push_back(nodeFindingsResult(runs, options.node));
  return report;
}

}  // namespace pf::history

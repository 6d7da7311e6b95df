// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight history` in the terminal: the runs, the nodes that failed k of their last n checks, the first-seen
// regressions, and with --node that node's figures and findings run by run. Every value is a row of the
// document's results (history/history_report.hpp); each section ends with its status line and fix.
#include <fmt/format.h>

#include "text_view.hpp"

namespace pf::reports {
namespace {

std::string gbps(const Json& v) { return v.is_number() ? fmt::format("{:.2f}", v.get<double>()) : "-"; }
std::string text(const Json& row, const char* name) {
  const Json& v = row.contains(name) ? row[name] : Json();
  return v.is_string() ? v.get<std::string>() : v.is_null() ? "-" : v.dump();
}

std::string runsTable(const Result& r) {
  std::string s = fmt::format("{:>5}  {:<24} {:>5}  {:<8} {:>12} {:>8}  {}\n", "run", "started", "hosts", "verdict",
                              "failed nodes", "findings", "all-reduce busbw (GB/s)");
  for (const Json& row : r.rows)
    s += fmt::format("{:>5}  {:<24} {:>5}  {:<8} {:>12} {:>8}  {}\n", text(row, "run"), text(row, "started"),
                     text(row, "hosts"), text(row, "verdict"), text(row, "failed_nodes"), text(row, "findings"),
                     gbps(row.value("allreduce_busbw_gbps", Json())));
  return s;
}

std::string flappingTable(const Result& r) {
  std::string s = fmt::format("  {:<24} {:>6} {:>6}  {}\n", "node", "failed", "checks", "verdicts, oldest first");
  for (const Json& row : r.rows)
    s += fmt::format("  {:<24} {:>6} {:>6}  {}\n", text(row, "host"), text(row, "failed"), text(row, "checks"),
                     text(row, "pattern"));
  return s;
}

std::string regressionsTable(const Result& r) {
  std::string s = fmt::format("  {:<33} {:<22} {:>5}  {:<24} {:>8} {:>8} {:>6} {:>8}\n", "node or pair", "figure",
                              "run", "first seen", "GB/s", "before", "drop", "latest");
  for (const Json& row : r.rows) {
    const std::string who =
        row.value("peer", Json()).is_string() ? text(row, "host") + "-" + text(row, "peer") : text(row, "host");
    s += fmt::format("  {:<33} {:<22} {:>5}  {:<24} {:>8} {:>8} {:>5.1f}% {:>8}\n", who, text(row, "figure"),
                     text(row, "run"), text(row, "started"), gbps(row["value_gbps"]), gbps(row["earlier_median_gbps"]),
                     row.value("drop_percent", 0.0), gbps(row["latest_gbps"]));
  }
  return s;
}

std::string bandwidthTable(const Result& r) {
  std::string s = fmt::format("{:>5}  {:<24} {:<24} {:<8} {:>16} {:>16}\n", "run", "started", "node", "verdict",
                              "pair median GB/s", "all-reduce GB/s");
  for (const Json& row : r.rows)
    s += fmt::format("{:>5}  {:<24} {:<24} {:<8} {:>16} {:>16}\n", text(row, "run"), text(row, "started"),
                     text(row, "host"), text(row, "verdict"), gbps(row["pair_median_gbps"]),
                     gbps(row["allreduce_busbw_gbps"]));
  return s;
}

std::string findingsTable(const Result& r) {
  std::string s;
  for (const Json& row : r.rows)
    // The message names the node itself (every finding names the hosts it is about).
    s += fmt::format("{:>5}  {:<24} {:<7} {:<28} {}\n", text(row, "run"), text(row, "started"), text(row, "status"),
                     text(row, "check"), text(row, "message"));
  return s;
}

class HistoryText final : public TextView {
 public:
  std::string end(const RunReport& report) override {
    std::string s;
    for (const Result& r : report.results) {
      if (!r.rows.empty()) {
        if (r.key == "history.runs") s += runsTable(r);
        if (r.key == "history.flapping") s += flappingTable(r);
        if (r.key == "history.regressions") s += regressionsTable(r);
        // Every node's figures are the chart's data; the table lists them for one node (--node).
        if (r.key == "history.bandwidth") {
          if (!r.params.value("node", Json()).is_string()) continue;
          s += bandwidthTable(r);
        }
        if (r.key == "history.node_findings") s += findingsTable(r);
      }
      s += statusLines({r});
      s += "\n";
    }
    return s;
  }
};

PF_REGISTER_TEXT_VIEW(HistoryText, "history");

}  // namespace
}  // namespace pf::reports

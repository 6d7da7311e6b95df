// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight check` and `preflight pairs` in the terminal: the pair matrix, one block per phase (what was checked
// against what, check_summary.cpp), each problem with its message and remedy, then one line with the verdict
// naming the failing nodes and links and the exit code. `--quiet`: that line alone.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "check_summary.hpp"
#include "pf/pair_row.hpp"
#include "pf/units.hpp"
#include "text_view.hpp"

namespace pf::reports {
namespace {

// With several rails (check --rails) each row is one rail of a pair: a last column names the NICs.
std::string pairTable(const Result& pairs) {
  bool rails = false;
  for (const Json& j : pairs.rows) rails = rails || j.contains("rail");
  std::string out =
      fmt::format("# {:>5} {:>16} {:>16} {:>10} {:>10} {:>9} {:>9} {:>7}{}\n", "round", "node_a", "node_b", "a->b GB/s",
                  "b->a GB/s", "lat us", "% expect", "status", rails ? "  rail" : "");
  for (const Json& j : pairs.rows) {
    PairRow r = pairRowFromJson(j);
    std::string rail;
    if (r.rail >= 0) rail = fmt::format("  {} {}", r.rail, r.nic_a == r.nic_b ? r.nic_a : r.nic_a + " / " + r.nic_b);
    out += fmt::format("  {:>5} {:>16} {:>16} {:>10.3f} {:>10.3f} {:>9.1f} {:>9} {:>7}{}\n", r.round, r.host_a,
                       r.host_b, r.bw_a_to_b_gbps, r.bw_b_to_a_gbps, r.lat_us,
                       r.pct_of_expected ? fmt::format("{:.0f}", *r.pct_of_expected) : std::string("-"),
                       toString(r.status), rail);
  }
  return out;
}

std::vector<std::string> findingHosts(const Result& r) {
  if (r.params.contains("hosts") && r.params.at("hosts").is_array()) {
    std::vector<std::string> hosts;
    for (const Json& h : r.params.at("hosts"))
      if (h.is_string()) hosts.push_back(h.get<std::string>());
    return hosts;
  }
  return {r.host};
}

bool problem(Status s) {
  return s == Status::kFail || s == Status::kError || s == Status::kTimeout || s == Status::kWarn;
}

std::string summary(const RunReport& report, bool strict, bool quiet) {
  std::string out;
  // A failing finding about one host names a node; one about two hosts names a link. A link whose end is a
  // failing node is that node's symptom (a slow node slows every pair it is in), so it is not listed again.
  std::set<std::string> failingNodes;
  std::vector<std::vector<std::string>> failingLinks;
  int problems = 0;
  bool skipped = false;
  for (const Result& r : report.results) {
    // A phase that could not run is said so, so that a PASS never hides an untested part.
    skipped = skipped || r.status == Status::kSkipped;  // the phase blocks say what and why
    if (!problem(r.status)) continue;
    // A pair matrix, a sweep or a probe that failed is explained by its findings (kind "check"), which name
    // the nodes; listing both would say everything twice.
    if (r.kind == Kind::kPairs || r.kind == Kind::kSweep || r.kind == Kind::kProbe) continue;
    ++problems;
    if (r.status != Status::kWarn && !r.host.empty()) {
      std::vector<std::string> hosts = findingHosts(r);
      if (hosts.size() == 1)
        failingNodes.insert(hosts[0]);
      else
        failingLinks.push_back(std::move(hosts));
    }
    out += fmt::format("{:5} {} [{}]\n", r.status == Status::kWarn ? "WARN" : "FAIL",
                       r.host.empty() ? std::string("(all nodes)") : r.host, r.key);
    out += fmt::format("      {}\n", r.message);
    if (!r.remedy.empty()) out += fmt::format("      remedy: {}\n", r.remedy);
  }
  // The exit code inside the brackets: scripts and prologs read "failing: <nodes>" at the end of this line.
  std::string head = fmt::format("preflight {}: {} ({}, {}, exit {})", report.context.command,
                                 report.exit_code == 0 ? "PASS" : "FAIL", counted(report.context.node_count, "node"),
                                 counted(report.context.world_size, "rank"), report.exit_code);
  std::set<std::string> links;
  for (const auto& hosts : failingLinks) {
    bool covered = false;
    for (const auto& h : hosts) covered = covered || failingNodes.count(h) != 0;
    if (!covered) links.insert(fmt::format("{}", fmt::join(hosts, "-")));
  }
  if (!links.empty()) head += fmt::format("; failing links: {}", fmt::join(links, " "));
  if (!failingNodes.empty()) head += fmt::format("; failing: {}", fmt::join(failingNodes, " "));
  if (problems == 0) head += !skipped ? "; every check within limits" : "; every check that ran within limits";
  if (!strict && report.verdict == Status::kWarn) head += "; warnings do not fail without --strict";
  return quiet ? head + "\n" : out + head + "\n";
}

class GateText final : public TextView {
 public:
  std::string end(const RunReport& report) override {
    if (options().quiet) return summary(report, options().strict, true);
    std::string s;
    for (const Result& r : report.results)
      if (r.kind == Kind::kPairs && !r.rows.empty()) s += pairTable(r);
    return s + phaseBlocks(report) + summary(report, options().strict, false);
  }
};

PF_REGISTER_TEXT_VIEW(GateText, "check");
PF_REGISTER_TEXT_VIEW(GateText, "pairs");

}  // namespace
}  // namespace pf::reports

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "verdict.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "pf/error.hpp"

namespace pf::check {

std::vector<Result> findingsToResults(const std::vector<Finding>& findings) {
  std::vector<Result> out;
  for (const Finding& f : findings) {
    Result r;
    r.key = "check." + f.check;
    r.kind = "check";
    r.status = f.status;
    r.message = f.message;
    r.remedy = f.remedy;
    r.host = fmt::format("{}", fmt::join(f.hosts, ","));
    r.evidence = f.evidence;
    r.params["hosts"] = f.hosts;
    out.push_back(std::move(r));
  }
  return out;
}

void decideVerdict(RunReport& report, bool strict) {
  // Skipped phases and absent devices are information, not a verdict: a CPU node without GPUs passes.
  Status v = Status::kPass;
  for (const Result& r : report.results)
    if (r.status != Status::kSkipped && r.status != Status::kAbsent) v = worst(v, r.status);
  report.verdict = v;
  const bool failed = v == Status::kFail || v == Status::kError || (strict && v == Status::kWarn);
  report.exit_code = failed ? static_cast<int>(ExitCode::kCheckFailed) : 0;
}

std::string summarize(const RunReport& report, bool strict) {
  std::string out;
  // A failing finding about one host names a node; one about two hosts names a link. A link whose end is a
  // failing node is that node's symptom (a slow node slows every pair it is in), so it is not listed again.
  std::set<std::string> failingNodes;
  std::vector<std::vector<std::string>> failingLinks;
  int problems = 0;
  std::string skipped;
  for (const Result& r : report.results) {
    // A phase that could not run is said so, so that a PASS never hides an untested part.
    if (r.status == Status::kSkipped) skipped += fmt::format("SKIP  [{}] {}\n", r.key, r.message);
    if (r.status != Status::kFail && r.status != Status::kError && r.status != Status::kWarn) continue;
    // A pair matrix, a sweep or a probe that failed is explained by its findings (kind "check"), which name
    // the nodes; listing both would say everything twice.
    if (r.kind == "pairs" || r.kind == "sweep" || r.kind == "probe") continue;
    ++problems;
    if (r.status != Status::kWarn && !r.host.empty()) {
      std::vector<std::string> hosts = r.params.value("hosts", std::vector<std::string>{r.host});
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
  std::string head = fmt::format("preflight {}: {} ({} nodes, {} ranks)", report.context.command,
                                 report.exit_code == 0 ? "PASS" : "FAIL", report.context.node_count,
                                 report.context.world_size);
  std::set<std::string> links;
  for (const auto& hosts : failingLinks) {
    bool covered = false;
    for (const auto& h : hosts) covered = covered || failingNodes.count(h) != 0;
    if (!covered) links.insert(fmt::format("{}", fmt::join(hosts, "-")));
  }
  if (!links.empty()) head += fmt::format("; failing links: {}", fmt::join(links, " "));
  if (!failingNodes.empty()) head += fmt::format("; failing: {}", fmt::join(failingNodes, " "));
  if (problems == 0) head += skipped.empty() ? "; every check within limits" : "; every check that ran within limits";
  if (!strict && report.verdict == Status::kWarn) head += "; warnings do not fail without --strict";
  return head + "\n" + out + skipped;
}

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "contention.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

namespace pf::check {
namespace {

bool networkFinding(const Finding& f) {
  return f.check == "pairs.node_bandwidth" || f.check == "pairs.node_latency" || f.check == "pairs.link";
}

// The rows a finding is about: a node's pairs at the finding's level, less those with another node that a
// finding of its own already explains (a healthy node's pair with the slow node is that node's), or the link.
std::vector<PairRow*> rowsOf(const Finding& f, std::vector<PairRow>& rows, const std::set<std::string>& slowNodes) {
  std::vector<PairRow*> out;
  for (PairRow& r : rows) {
    const std::string& other = r.host_a == f.hosts[0] ? r.host_b : r.host_a;
    const bool node =
        f.hosts.size() == 1 && (r.host_a == f.hosts[0] || r.host_b == f.hosts[0]) && !slowNodes.count(other);
    const bool link = f.hosts.size() == 2 && ((r.host_a == f.hosts[0] && r.host_b == f.hosts[1]) ||
                                              (r.host_a == f.hosts[1] && r.host_b == f.hosts[0]));
    if ((node || link) && r.status == f.status) out.push_back(&r);
  }
  return out;
}

void addCpuEvidence(Finding& f, const CpuLoad& c) {
  f.evidence.push_back({"CPU load during the pair test", c.describe(), "", "node " + c.host});
}

}  // namespace

void attributeContention(PairAnalysis& a, std::vector<PairRow>& rows, const std::vector<CpuLoad>& cpu) {
  if (cpu.empty()) return;
  std::map<std::string, const CpuLoad*> byHost;
  std::vector<std::string> busy;
  for (const CpuLoad& c : cpu) {
    byHost[c.host] = &c;
    if (c.contended()) busy.push_back(c.host);
  }
  const bool runContended = 2 * busy.size() > cpu.size();
  std::set<std::string> slowNodes;
  for (const Finding& f : a.findings)
    if (f.hosts.size() == 1 && networkFinding(f)) slowNodes.insert(f.hosts[0]);

  for (Finding& f : a.findings) {
    if (!networkFinding(f)) continue;
    std::vector<const CpuLoad*> loads;
    for (const std::string& h : f.hosts)
      if (auto it = byHost.find(h); it != byHost.end() && it->second->contended()) loads.push_back(it->second);
    if (loads.empty()) continue;
    std::vector<PairRow*> mine = rowsOf(f, rows, slowNodes);
    double worstPct = 100;
    for (const PairRow* r : mine) worstPct = std::min(worstPct, r->pct_of_expected.value_or(0));
    for (const CpuLoad* c : loads) addCpuEvidence(f, *c);
    if (worstPct < kContentionExplainsPct) continue;  // too slow for contention: the network verdict stands

    std::vector<std::string> names;
    for (const CpuLoad* c : loads) names.push_back(c->host);
    const std::string who = fmt::format("{}", fmt::join(names, " and "));
    f.check = "pairs.cpu_contention";
    if (runContended) f.status = Status::kWarn;
    f.message = fmt::format(
        "{}: {} pair(s) slow (worst {:.0f}% of the expected) while the CPUs of {} were busy with other work ({}): "
        "CPU contention, not shown to be the network",
        fmt::join(f.hosts, "-"), mine.size(), worstPct, who, loads.front()->describe());
    f.remedy = fmt::format(
        "clear {0} before the job: stop the processes named (or let the previous job's finish; `ps -eo "
        "pid,pcpu,comm --sort=-pcpu | head` on the node), then rerun `preflight check`. Its network was not "
        "shown to be at fault: do not drain it for the network or inspect its cables",
        who);
    for (PairRow* r : mine) {
      if (runContended) r->status = Status::kWarn;
      r->reason += fmt::format("; CPU contention on {}", who);
    }
  }

  if (runContended) {
    Finding f;
    f.status = Status::kWarn;
    f.check = "pairs.cpu_contention";
    f.message = fmt::format(
        "{} of {} nodes had their CPUs busy with other work during the pair test ({}): the pair figures measure "
        "that contention, not the fabric, and are unreliable",
        busy.size(), cpu.size(), fmt::join(busy, ", "));
    f.remedy =
        "run the check on quiet nodes (nothing else running: stop stray processes of earlier jobs, data loaders, "
        "monitoring that spins), then rerun `preflight check`";
    for (const CpuLoad& c : cpu)
      if (c.contended()) addCpuEvidence(f, c);
    a.findings.push_back(std::move(f));
  }
  // Every other failure (pairs.fabric, a node too slow for contention) is a finding or a row too.
  a.status = Status::kPass;
  for (const PairRow& r : rows) a.status = worst(a.status, r.status);
  for (const Finding& f : a.findings) a.status = worst(a.status, f.status);
}

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// analyse() of analysis.hpp: groups, their members, and per group the first sequence id where ranks part ways.
#include <algorithm>
#include <map>
#include <set>

#include "flight_recorder/analysis.hpp"
#include "flight_recorder/group_match.hpp"
#include "flight_recorder/p2p_match.hpp"

namespace pf::doctor::fr {

const char* toString(VerdictKind k) {
  switch (k) {
    case VerdictKind::kMismatch: return "mismatch";
    case VerdictKind::kNotReached: return "not-reached";
    case VerdictKind::kMissingRank: return "missing-rank";
    case VerdictKind::kIncomplete: return "incomplete";
    case VerdictKind::kStraggler: return "straggler";
    case VerdictKind::kCompletedOk: return "completed-ok";
  }
  return "?";
}

std::vector<Frame> userFrames(const std::vector<Frame>& frames, std::size_t max) {
  std::vector<Frame> out;
  for (const Frame& f : frames) {
    // torch's own wrappers (distributed_c10d.py, c10d_logger.py) and the launchers' start-up frames say
    // nothing about which line of the user's program made the call.
    const bool own = f.file.find("/torch/") != std::string::npos ||
                     f.file.find("/multiprocessing/") != std::string::npos || f.file.rfind("<", 0) == 0 ||
                     f.file.find("/runpy.py") != std::string::npos;
    if (!own) out.push_back(f);
    if (out.size() == max) break;
  }
  return out;
}

namespace {

// The members of every group the dumps name, from pg_config. A group the recorder registered under another key
// than its entries use (gloo's default group is keyed "" in torch 2.15's pg_config, its entries say "0") is
// the world when its description says it is the default group.
struct Membership {
  std::vector<int> ranks;
  bool known = false;
  std::string disagreement;  // set when two dumps give different members
};

std::vector<int> worldRanks(const std::vector<const Dump*>& dumps) {
  std::vector<int> best;
  for (const Dump* d : dumps)
    for (const auto& g : d->groups)
      if (g.ranks.size() > best.size()) best = g.ranks;
  return best;
}

Membership membersOf(const std::string& pg, const std::string& desc, const std::vector<const Dump*>& dumps) {
  Membership m;
  for (const Dump* d : dumps) {
    const GroupConfig* g = d->group(pg);
    if (g == nullptr) continue;
    if (!m.known) {
      m.ranks = g->ranks;
      m.known = true;
    } else if (std::set<int>(g->ranks.begin(), g->ranks.end()) != std::set<int>(m.ranks.begin(), m.ranks.end())) {
      m.disagreement = "rank " + std::to_string(d->rank) + "'s pg_config gives group " + pg + " other members";
    }
  }
  if (!m.known && desc == "default_pg") {
    m.ranks = worldRanks(dumps);
    m.known = !m.ranks.empty();
  }
  if (!m.known) {
    std::set<int> seen;
    for (const Dump* d : dumps)
      for (const auto& e : d->entries)
        if (e.pgName == pg) seen.insert(d->rank);
    m.ranks.assign(seen.begin(), seen.end());
  }
  std::sort(m.ranks.begin(), m.ranks.end());
  return m;
}

int severity(VerdictKind k) { return static_cast<int>(k); }

bool hasP2p(const std::string& pg, const std::vector<const Dump*>& dumps) {
  for (const Dump* d : dumps)
    for (const auto& e : d->entries)
      if (e.isP2p && e.pgName == pg) return true;
  return false;
}

// The finding the headline is: the most specific; between equals, the one listed first. A rank that never
// reached a collective because it waits in a send or receive its peer never matched is explained by that
// point-to-point finding, which then leads (its peer is the one to look at).
int headlineIndex(const std::vector<GroupFinding>& groups) {
  std::set<int> waitingInP2p;
  for (const auto& g : groups)
    if (g.verdict.p2p && g.verdict.kind != VerdictKind::kCompletedOk)
      waitingInP2p.insert(g.verdict.waiting.begin(), g.verdict.waiting.end());
  int best = -1;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const Headline& h = groups[i].verdict;
    const bool explained = !h.p2p && h.kind == VerdictKind::kNotReached && !h.ranks.empty() &&
                           std::all_of(h.ranks.begin(), h.ranks.end(), [&](int r) { return waitingInP2p.count(r); });
    if (explained) continue;
    if (best < 0 || severity(h.kind) < severity(groups[static_cast<std::size_t>(best)].verdict.kind))
      best = static_cast<int>(i);
  }
  return best;
}

}  // namespace

Report analyse(const std::vector<Dump>& all) {
  Report r;
  std::vector<const Dump*> dumps;
  std::set<int> seenRanks;
  for (const Dump& d : all) {
    r.files.push_back(d.path);
    if (!seenRanks.insert(d.rank).second) {
      r.notes.push_back(d.path + ": a second dump of rank " + std::to_string(d.rank) + "; the first one given is used");
      continue;
    }
    dumps.push_back(&d);
    if (r.version.find(d.version) == std::string::npos) r.version += (r.version.empty() ? "" : ", ") + d.version;
  }
  std::sort(dumps.begin(), dumps.end(), [](const Dump* a, const Dump* b) { return a->rank < b->rank; });
  r.ranksGiven.assign(seenRanks.begin(), seenRanks.end());
  const std::vector<int> world = worldRanks(dumps);
  r.worldSize = world.empty() ? 0 : *std::max_element(world.begin(), world.end()) + 1;

  // Groups in the order of their names (numeric where they are numbers: "0", "1", ... "10").
  std::map<std::pair<std::size_t, std::string>, std::string> groups;  // (length, name) -> desc
  for (const Dump* d : dumps)
    for (const auto& e : d->entries) groups.emplace(std::make_pair(e.pgName.size(), e.pgName), e.pgDesc);

  std::set<int> missing;
  for (const auto& [key, desc] : groups) {
    const Membership m = membersOf(key.second, desc, dumps);
    if (!m.disagreement.empty()) r.notes.push_back(m.disagreement);
    GroupFinding g = matchGroup(key.second, desc, m.ranks, dumps);
    g.membersKnown = m.known;
    if (!m.known)
      r.notes.push_back("no pg_config names group " + key.second + "; its members are taken as the ranks seen in it");
    missing.insert(g.dumpsMissing.begin(), g.dumpsMissing.end());
    for (const auto& n : g.notes) r.notes.push_back("group " + g.pg + ": " + n);
    r.groups.push_back(std::move(g));
    if (!hasP2p(key.second, dumps)) continue;
    GroupFinding p = matchP2p(key.second, desc, m.ranks, dumps);
    p.membersKnown = m.known;
    for (const auto& n : p.notes) r.notes.push_back("group " + p.pg + " point-to-point: " + n);
    r.groups.push_back(std::move(p));
  }
  r.ranksMissing.assign(missing.begin(), missing.end());
  linkAcrossGroups(r.groups, dumps);
  if (dumps.empty()) {
    r.headline.summary = "no Flight Recorder dump was given";
    return r;
  }
  r.headlineGroup = headlineIndex(r.groups);
  if (r.headlineGroup >= 0) r.headline = r.groups[static_cast<std::size_t>(r.headlineGroup)].verdict;
  if (r.headlineGroup < 0) r.headline.summary = "the dumps record no collective";
  return r;
}

}  // namespace pf::doctor::fr

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// analyse() of analysis.hpp: groups, their members, and per group the first sequence id where ranks part ways.
#include <algorithm>
#include <map>
#include <set>

#include "flight_recorder/analysis.hpp"
#include "flight_recorder/group_match.hpp"

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
  }
  r.ranksMissing.assign(missing.begin(), missing.end());
  std::size_t p2p = 0;
  for (const Dump* d : dumps)
    for (const auto& e : d->entries) p2p += e.isP2p;
  if (p2p > 0)
    r.notes.push_back(
        std::to_string(p2p) +
        " point-to-point entries (send/recv, ordered by p2p_seq_id) are read but not matched across ranks");
  linkAcrossGroups(r.groups, dumps);
  if (dumps.empty()) {
    r.headline.summary = "no Flight Recorder dump was given";
    return r;
  }
  // The headline: the most specific finding; between equals, the group listed first.
  const GroupFinding* best = nullptr;
  for (const auto& g : r.groups)
    if (best == nullptr || severity(g.verdict.kind) < severity(best->verdict.kind)) best = &g;
  if (best != nullptr) r.headline = best->verdict;
  if (best == nullptr) r.headline.summary = "the dumps record no collective";
  return r;
}

}  // namespace pf::doctor::fr

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "flight_recorder/group_match.hpp"

#include <algorithm>
#include <map>

#include "flight_recorder/straggler.hpp"

namespace pf::doctor::fr {
namespace {

// One rank's view of the group: its entries by sequence id (collectives only) and its progress counters.
struct RankEntries {
  const Dump* dump = nullptr;
  std::map<std::int64_t, const Entry*> bySeq;
  const GroupStatus* status = nullptr;
};

// Ended as the recorder says: the entry's own state (NCCL records it), the group's last completed collective
// (gloo only updates pg_status; it counts a collective that failed as completed too), or the entry retired
// (the recorder retires an entry when its work ends, failed or not; torch's generic recorder hook records no
// state or pg_status at all, only that).
bool ended(const Entry& e, const GroupStatus* s) {
  return e.state == "completed" || e.retired || (s != nullptr && s->lastCompleted >= e.collectiveSeqId);
}

void describeFrom(Headline& h, const Entry& e) {
  h.op = e.profilingName;
  h.inputSizes = e.inputSizes;
  h.outputSizes = e.outputSizes;
  h.inputDtypes = e.inputDtypes;
  h.outputDtypes = e.outputDtypes;
}

// The values ranks must agree on for one collective, by field name.
std::vector<std::pair<std::string, std::string>> signature(const Entry& e) {
  return {{"operation", e.profilingName},
          {"input sizes", sizesText(e.inputSizes)},
          {"output sizes", sizesText(e.outputSizes)},
          {"dtypes", dtypesText(e.inputDtypes) + " -> " + dtypesText(e.outputDtypes)}};
}

// The first field on which the entries at one sequence id differ. The culprits are the ranks outside the
// largest agreeing set (on a tie, the set holding the lowest rank is taken as the reference, and said so).
bool findMismatch(const std::vector<std::pair<int, const Entry*>>& present, Headline& h,
                  std::vector<std::string>& notes) {
  for (std::size_t f = 0; f < 4; ++f) {
    std::map<std::string, std::vector<int>> byValue;
    for (const auto& [rank, e] : present) byValue[signature(*e)[f].second].push_back(rank);
    if (byValue.size() < 2) continue;
    auto ref = byValue.begin();
    for (auto it = byValue.begin(); it != byValue.end(); ++it)
      if (it->second.size() > ref->second.size() ||
          (it->second.size() == ref->second.size() && it->second[0] < ref->second[0]))
        ref = it;
    std::size_t equal = 0;
    for (const auto& [v, ranks] : byValue) equal += ranks.size() == ref->second.size();
    if (equal > 1)
      notes.push_back("as many ranks hold one " + signature(*present[0].second)[f].first +
                      " as another; the ranks agreeing with the lowest rank are taken as the reference");
    h.kind = VerdictKind::kMismatch;
    h.field = signature(*present[0].second)[f].first;
    for (const auto& [rank, e] : present) {
      if (std::find(ref->second.begin(), ref->second.end(), rank) != ref->second.end()) {
        if (h.op.empty()) describeFrom(h, *e);
        h.waiting.push_back(rank);
      } else {
        h.ranks.push_back(rank);
        if (h.culpritValue.empty()) {
          h.culpritValue = signature(*e)[f].second;
          setCulpritCall(h, *e);
        }
      }
    }
    return true;
  }
  return false;
}

}  // namespace

void setCulpritCall(Headline& h, const Entry& e) {
  h.culpritCall = "group " + e.pgName + (e.pgDesc.empty() ? "" : " (" + e.pgDesc + ")") + " " +
                  (e.isP2p ? "p2p seq " : "seq ") + std::to_string(e.seq()) + " " + e.profilingName;
  h.frames = userFrames(e.frames);
}

const Entry* lastEntry(const Dump& d) {
  const Entry* last = nullptr;
  for (const auto& e : d.entries)
    if (last == nullptr || e.recordId > last->recordId) last = &e;
  return last;
}

GroupFinding matchGroup(const std::string& pg, const std::string& desc, const std::vector<int>& members,
                        const std::vector<const Dump*>& dumps) {
  GroupFinding g{pg, desc, members, true, {}, {}, {}};
  Headline& h = g.verdict;
  h.pg = pg;
  h.pgDesc = desc;
  std::map<int, RankEntries> ranks;
  for (int m : members) {
    auto it = std::find_if(dumps.begin(), dumps.end(), [m](const Dump* d) { return d->rank == m; });
    if (it == dumps.end()) {
      g.dumpsMissing.push_back(m);
      continue;
    }
    RankEntries& re = ranks[m];
    re.dump = *it;
    re.status = (*it)->groupStatus(pg);
    // A pg_status where nothing started or completed tells nothing of what was enqueued either: torch's generic
    // recorder hook (a backend that does not record itself) writes its count of ops of any kind there.
    if (re.status != nullptr && re.status->lastStarted < 0 && re.status->lastCompleted < 0) re.status = nullptr;
    for (const auto& e : (*it)->entries)
      if (e.pgName == pg && !e.isP2p) re.bySeq[e.collectiveSeqId] = &e;
  }
  std::vector<std::int64_t> seqs;
  for (const auto& [r, re] : ranks)
    for (const auto& [s, e] : re.bySeq) seqs.push_back(s);
  std::sort(seqs.begin(), seqs.end());
  seqs.erase(std::unique(seqs.begin(), seqs.end()), seqs.end());
  std::vector<std::string>& notes = g.notes;

  std::vector<Arrivals> arrivals;
  const auto fresh = [&](std::int64_t s, VerdictKind k) {
    h = Headline{};
    h.pg = pg, h.pgDesc = desc, h.seq = s, h.kind = k;
  };
  for (std::int64_t s : seqs) {
    std::vector<std::pair<int, const Entry*>> present;
    std::vector<int> notReached, pending;
    for (const auto& [r, re] : ranks) {
      auto it = re.bySeq.find(s);
      if (it != re.bySeq.end()) {
        present.push_back({r, it->second});
        if (!ended(*it->second, re.status)) pending.push_back(r);
      } else if (re.bySeq.empty() || re.bySeq.rbegin()->first < s) {
        // Not in the buffer and later than anything it recorded: it never got here. (Earlier than its oldest
        // entry would mean the ring buffer dropped it, which tells nothing.)
        if (re.status == nullptr || re.status->lastEnqueued < s) notReached.push_back(r);
      }
    }
    fresh(s, VerdictKind::kCompletedOk);
    if (findMismatch(present, h, notes)) return g;
    if (!notReached.empty()) {
      fresh(s, VerdictKind::kNotReached);
      h.ranks = notReached;
      for (const auto& [r, e] : present) h.waiting.push_back(r);
      describeFrom(h, *present[0].second);
      if (const Entry* last = lastEntry(*ranks[notReached[0]].dump)) setCulpritCall(h, *last);
      return g;
    }
    if (!pending.empty()) {
      describeFrom(h, *present[0].second);
      h.waiting = pending;
      h.kind = g.dumpsMissing.empty() ? VerdictKind::kIncomplete : VerdictKind::kMissingRank;
      h.ranks = g.dumpsMissing.empty() ? pending : g.dumpsMissing;
      h.othersStalled = !g.dumpsMissing.empty();
      return g;
    }
    // Lateness is judged over the collectives every member recorded (straggler.hpp).
    if (present.size() == members.size() && present.size() >= 2) arrivals.push_back({s, present});
  }
  if (auto strag = findStraggler(arrivals); strag && g.dumpsMissing.empty()) {
    h = *strag;
    h.pg = pg, h.pgDesc = desc;
    return g;
  }
  // Nothing parted ways among the dumps given. With dumps missing, the last collective the given ranks
  // recorded is where the missing ones can neither be confirmed nor ruled out.
  fresh(seqs.empty() ? -1 : seqs.back(),
        g.dumpsMissing.empty() ? VerdictKind::kCompletedOk : VerdictKind::kMissingRank);
  h.ranks = g.dumpsMissing;
  if (!seqs.empty()) {
    for (const auto& [r, re] : ranks)
      if (auto it = re.bySeq.find(seqs.back()); it != re.bySeq.end()) {
        h.waiting.push_back(r);
        if (h.op.empty()) describeFrom(h, *it->second);
      }
  }
  return g;
}

// Every rank's last call at the same place in its program (the same record id and operation) but in
// different groups: the ranks in the smaller set called it in the wrong group. This holds even where pg_config
// cannot say who belongs to which group (torch 2.15's gloo recorder files every group under one key).
void lastCallsInDifferentGroups(std::vector<GroupFinding>& groups, const std::vector<const Dump*>& dumps) {
  std::map<std::string, std::vector<std::pair<int, const Entry*>>> byGroup;
  const Entry* first = nullptr;
  for (const Dump* d : dumps) {
    const Entry* last = lastEntry(*d);
    if (last == nullptr || last->isP2p) return;
    if (first != nullptr && (last->recordId != first->recordId || last->profilingName != first->profilingName)) return;
    first = first ? first : last;
    byGroup[last->pgName].push_back({d->rank, last});
  }
  if (byGroup.size() != 2) return;
  auto big = byGroup.begin(), small = std::next(big);
  if (small->second.size() > big->second.size()) std::swap(big, small);
  if (small->second.size() == big->second.size()) return;  // no majority to call the others wrong
  for (auto& g : groups) {
    if (g.pg != big->first) continue;
    const Entry& ref = *big->second.front().second;
    const Entry& wrong = *small->second.front().second;
    Headline h;
    h.kind = VerdictKind::kMismatch;
    h.field = "group";
    h.pg = g.pg, h.pgDesc = g.desc, h.seq = ref.collectiveSeqId;
    describeFrom(h, ref);
    for (const auto& [r, e] : small->second) h.ranks.push_back(r);
    for (const auto& [r, e] : big->second) h.waiting.push_back(r);
    h.culpritValue = "group " + wrong.pgName + (wrong.pgDesc.empty() ? "" : " (" + wrong.pgDesc + ")") + " seq " +
                     std::to_string(wrong.collectiveSeqId) + " " + wrong.profilingName;
    setCulpritCall(h, wrong);
    g.verdict = h;
  }
}

void linkAcrossGroups(std::vector<GroupFinding>& groups, const std::vector<const Dump*>& dumps) {
  lastCallsInDifferentGroups(groups, dumps);
  for (auto& g : groups) {
    Headline& h = g.verdict;
    if (h.kind != VerdictKind::kNotReached) continue;
    for (int culprit : h.ranks) {
      auto d = std::find_if(dumps.begin(), dumps.end(), [culprit](const Dump* x) { return x->rank == culprit; });
      if (d == dumps.end()) continue;
      const Entry* last = lastEntry(**d);
      // Its last call is in another group, and that collective did not complete there: it waits elsewhere.
      if (last == nullptr || last->pgName == g.pg || last->isP2p) continue;
      const GroupStatus* s = (*d)->groupStatus(last->pgName);
      if (last->state == "completed" || (s != nullptr && s->lastCompleted >= last->collectiveSeqId && last->retired))
        continue;
      h.kind = VerdictKind::kMismatch;
      h.field = "group";
      h.culpritValue = "group " + last->pgName + (last->pgDesc.empty() ? "" : " (" + last->pgDesc + ")") + " seq " +
                       std::to_string(last->collectiveSeqId) + " " + last->profilingName;
      break;
    }
  }
}

}  // namespace pf::doctor::fr

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "flight_recorder/p2p_match.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

#include "flight_recorder/group_match.hpp"

namespace pf::doctor::fr {
namespace {

bool parseRank(std::string_view s, int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && out >= 0;
}

// What a p2p op moves: a send's input, a receive's output. NCCL records the tensor on both sides and torch's
// generic recorder hook only on the side it moves, so the other side is taken where the first is empty.
const std::vector<std::vector<std::int64_t>>& payloadSizes(const Entry& e, bool send) {
  const auto& own = send ? e.inputSizes : e.outputSizes;
  return own.empty() ? (send ? e.outputSizes : e.inputSizes) : own;
}

const std::vector<std::string>& payloadDtypes(const Entry& e, bool send) {
  const auto& own = send ? e.inputDtypes : e.outputDtypes;
  return own.empty() ? (send ? e.outputDtypes : e.inputDtypes) : own;
}

struct Op {
  const Entry* e = nullptr;
  P2pCall call;
  int self() const { return call.send ? call.src : call.dst; }
};

// One rank's sends and receives of the group, in the order it issued them.
struct RankOps {
  const Dump* dump = nullptr;
  std::vector<Op> ops;
  bool wrapped = false;          // its ring buffer dropped its oldest entries (the oldest record id kept is not 0)
  std::int64_t oldestEpoch = 0;  // collective_seq_id of its oldest entry of the group
  bool oldestIsCollective = false;
};

struct Fault {
  Headline h;
  std::int64_t epoch = 0;  // the waiting op's collective_seq_id: where in the program the pair parted ways
};

void describeWaiting(Headline& h, const Op& op) {
  h.p2p = true;
  h.seq = op.e->p2pSeqId;
  h.op = op.e->profilingName;
  h.inputSizes = payloadSizes(*op.e, op.call.send);
  h.inputDtypes = payloadDtypes(*op.e, op.call.send);
  h.waiting = {op.self()};
}

// `op` waits for a peer that never posted its side: a receive for a send, a send for a receive.
Fault unmatched(const Op& op, const RankOps& peer) {
  Fault f;
  f.epoch = op.e->collectiveSeqId;
  f.h.kind = VerdictKind::kNotReached;
  describeWaiting(f.h, op);
  f.h.ranks = {op.call.send ? op.call.dst : op.call.src};
  if (const Entry* last = lastEntry(*peer.dump)) setCulpritCall(f.h, *last);
  return f;
}

// A send and the receive it pairs with disagree on `field`; the receive's rank is named (the dumps cannot say
// which side is wrong, and the receive is where the data lands).
Fault disagree(const Op& send, const Op& recv, const std::string& field) {
  Fault f;
  f.epoch = send.e->collectiveSeqId;
  f.h.kind = VerdictKind::kMismatch;
  describeWaiting(f.h, send);
  f.h.ranks = {recv.call.dst};
  f.h.field = field;
  f.h.culpritValue =
      field == "sizes" ? sizesText(payloadSizes(*recv.e, false)) : dtypesText(payloadDtypes(*recv.e, false));
  f.h.culpritOp = recv.e->profilingName;
  f.h.culpritSeq = recv.e->p2pSeqId;
  setCulpritCall(f.h, *recv.e);
  return f;
}

std::vector<Op> pairOps(const RankOps& r, bool send, int src, int dst, std::int64_t fromEpoch) {
  std::vector<Op> out;
  for (const Op& op : r.ops)
    if (op.call.send == send && op.call.src == src && op.call.dst == dst && op.e->collectiveSeqId >= fromEpoch)
      out.push_back(op);
  return out;
}

// The k-th send of a pair against the k-th receive: the first that disagrees or has no partner is the pair's
// fault. A lone op the recorder saw complete is left alone (its partner was dropped from the peer's buffer).
std::optional<Fault> matchPair(const std::vector<Op>& sends, const std::vector<Op>& recvs, const RankOps& src,
                               const RankOps& dst, std::size_t& matched) {
  for (std::size_t k = 0; k < std::max(sends.size(), recvs.size()); ++k) {
    if (k < sends.size() && k < recvs.size()) {
      const Entry &s = *sends[k].e, &r = *recvs[k].e;
      if (payloadSizes(s, true) != payloadSizes(r, false)) return disagree(sends[k], recvs[k], "sizes");
      const auto &sd = payloadDtypes(s, true), &rd = payloadDtypes(r, false);
      if (!sd.empty() && !rd.empty() && sd != rd) return disagree(sends[k], recvs[k], "dtypes");
      ++matched;
    } else if (k < sends.size()) {
      if (sends[k].e->state != "completed") return unmatched(sends[k], dst);
    } else if (recvs[k].e->state != "completed") {
      return unmatched(recvs[k], src);
    }
  }
  return std::nullopt;
}

}  // namespace

bool parseP2p(const Entry& e, const std::vector<int>& members, P2pCall& out) {
  const std::string op = e.op();  // "send 0->1", "recv 1<-0"
  const auto space = op.find(' ');
  if (space == std::string::npos) return false;
  const std::string_view type(op.data(), space), peers(op.data() + space + 1, op.size() - space - 1);
  out.send = type == "send";
  if (!out.send && type != "recv") return false;
  const auto arrow = peers.find(out.send ? "->" : "<-");
  if (arrow == std::string_view::npos) return false;
  const std::string_view left = peers.substr(0, arrow), right = peers.substr(arrow + 2);
  const std::string_view srcText = out.send ? left : right, dstText = out.send ? right : left;
  int s = -1, d = -1;
  if (!parseRank(dstText, d) || static_cast<std::size_t>(d) >= members.size()) return false;
  out.dst = members[static_cast<std::size_t>(d)];
  if (!out.send && srcText == "?") {
    out.src = -1;
    return true;
  }
  if (!parseRank(srcText, s) || static_cast<std::size_t>(s) >= members.size()) return false;
  out.src = members[static_cast<std::size_t>(s)];
  return true;
}

GroupFinding matchP2p(const std::string& pg, const std::string& desc, const std::vector<int>& members,
                      const std::vector<const Dump*>& dumps) {
  GroupFinding g{pg, desc, members, true, {}, {}, {}};
  std::map<int, RankOps> ranks;
  std::size_t unparsed = 0;
  std::set<int> anySource, foreign;
  for (int m : members) {
    auto it = std::find_if(dumps.begin(), dumps.end(), [m](const Dump* d) { return d->rank == m; });
    if (it == dumps.end()) {
      g.dumpsMissing.push_back(m);
      continue;
    }
    RankOps& ro = ranks[m];
    ro.dump = *it;
    std::vector<const Entry*> mine;
    std::int64_t oldestRecord = std::numeric_limits<std::int64_t>::max();
    for (const auto& e : (*it)->entries) {
      oldestRecord = std::min(oldestRecord, e.recordId);
      if (e.pgName == pg) mine.push_back(&e);
    }
    ro.wrapped = !(*it)->entries.empty() && oldestRecord > 0;
    std::sort(mine.begin(), mine.end(), [](const Entry* a, const Entry* b) { return a->recordId < b->recordId; });
    if (!mine.empty()) {
      ro.oldestEpoch = mine.front()->collectiveSeqId;
      ro.oldestIsCollective = !mine.front()->isP2p;
    }
    for (const Entry* e : mine) {
      Op op{e, {}};
      if (!e->isP2p) continue;
      if (!parseP2p(*e, members, op.call)) {
        ++unparsed;
      } else if (op.self() != m) {
        foreign.insert(m);  // the group's ranks are not those the dump's own ops name: its members are unknown
      } else if (op.call.src < 0) {
        anySource.insert(m);
      } else {
        ro.ops.push_back(op);
      }
    }
  }
  auto& notes = g.notes;
  if (unparsed > 0)
    notes.push_back(std::to_string(unparsed) + " point-to-point entries name no peer and are not matched");
  for (int r : foreign)
    notes.push_back("rank " + std::to_string(r) +
                    "'s point-to-point entries name another rank as their own: the group's members are not known "
                    "well enough to match them");
  for (int r : anySource)
    notes.push_back("rank " + std::to_string(r) +
                    " received from any source: its receives are not matched (the recorder names no sender)");

  std::set<std::pair<int, int>> pairs;  // (source, destination) with a send or a receive on either side
  for (const auto& [r, ro] : ranks)
    for (const Op& op : ro.ops) pairs.insert({op.call.src, op.call.dst});
  std::vector<Fault> faults;
  std::size_t matched = 0;
  std::set<int> realigned;
  for (const auto& [s, d] : pairs) {
    if (foreign.count(s) || foreign.count(d) || anySource.count(d)) continue;
    auto src = ranks.find(s), dst = ranks.find(d);
    if (src == ranks.end() || dst == ranks.end()) {
      notes.push_back("the sends from rank " + std::to_string(s) + " to rank " + std::to_string(d) +
                      " are not matched: rank " + std::to_string(src == ranks.end() ? s : d) + "'s dump was not given");
      continue;
    }
    // A ring buffer that dropped its oldest entries dropped an unknown number of the pair's ops: realign both
    // sides on the first collective after which the wrapped rank holds every op (p2p entries carry the
    // group's collective sequence id of when they were issued).
    std::int64_t from = std::numeric_limits<std::int64_t>::min();
    for (const RankOps* ro : {&src->second, &dst->second})
      if (ro->wrapped) {
        from = std::max(from, ro->oldestEpoch + (ro->oldestIsCollective ? 0 : 1));
        realigned.insert(ro->dump->rank);
      }
    const auto sends = pairOps(src->second, true, s, d, from), recvs = pairOps(dst->second, false, s, d, from);
    if (auto f = matchPair(sends, recvs, src->second, dst->second, matched)) faults.push_back(std::move(*f));
  }
  for (int r : realigned)
    notes.push_back("rank " + std::to_string(r) +
                    "'s ring buffer dropped its oldest entries: its point-to-point ops are matched from the first "
                    "collective of group " +
                    pg + " after which it holds them all");

  Headline& h = g.verdict;
  if (faults.empty()) {
    h.p2p = true;
    h.summary = std::to_string(matched) + " point-to-point send(s) of group " + pg + " matched with their receives";
  } else {
    // The root of a chain of waits: a fault whose culprit is not itself waiting for a peer; the earliest first.
    std::set<int> waitingRanks;
    for (const Fault& f : faults) waitingRanks.insert(f.h.waiting.front());
    auto key = [&](const Fault& f) {
      return std::make_tuple(waitingRanks.count(f.h.ranks.front()) > 0, f.epoch, f.h.waiting.front());
    };
    std::sort(faults.begin(), faults.end(), [&](const Fault& a, const Fault& b) { return key(a) < key(b); });
    h = faults.front().h;
    for (std::size_t i = 1; i < faults.size() && i < 4; ++i) {
      faults[i].h.pg = pg, faults[i].h.pgDesc = desc;
      notes.push_back("also: " + summaryOf(faults[i].h));
    }
  }
  h.pg = pg;
  h.pgDesc = desc;
  return g;
}

}  // namespace pf::doctor::fr

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The InfoExtractor's bounded per-process and per-communicator state: repeats of a process's lines told by text
// ids, its interface and HCA lists parsed once per text, facts kept up to a cap and counted past it, the Init
// progress of every communicator, two bits per rank.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "fact_names.hpp"
#include "info_extractor.hpp"
#include "interface_lists.hpp"
#include "line_search.hpp"
#include "line_words.hpp"

namespace pf::doctor {

bool InfoExtractor::sameTextAsBefore(int kind, std::uint32_t who, std::string_view text, std::uint64_t hash) {
  auto& of = textOf_[kind];
  if (of.size() <= who) of.resize(std::size_t{who} + 1, TextIds::kNone);
  const std::uint32_t id = textIds_[kind].idOf(text, hash);
  // A text without an id (past the caps) is never "the same as before": the caller reads it in full.
  const bool same = id != TextIds::kNone && of[who] == id;
  of[who] = id;
  return same;
}

InfoExtractor::ParsedText* InfoExtractor::parsedOf(int kind, std::uint32_t id) {
  if (id == TextIds::kNone) return nullptr;
  auto& slots = parsed_[kind];
  if (slots.size() <= id) slots.resize(std::size_t{id} + 1);
  return &slots[id];
}

// Every rank prints its rings and trees at every init: a bit per algorithm instead of a set insert per line.
void InfoExtractor::noteAlgo(std::uint8_t bit, const char* name) {
  if (algosSeen_ & bit) return;
  algosSeen_ |= bit;
  algos_.insert(name);
}

void InfoExtractor::addFact(const char* name, LineEvidence& ev) {
  // Every rank prints these lines at every init: past the first kMaxFactLines, the count is what changes.
  auto& lines = facts_[name];
  if (lines.size() < kMaxFactLines)
    lines.push_back(ev.get());
  else {
    ++factLinesPast_[name];
    ev.countedForFact(name);
  }
}

// The Init progress of every communicator is kept (a rank that never logged Init START in any of a job's
// communicators is named), within a budget against a log of endless restarts or a crafted one: past it the
// oldest communicators are dropped, counted in `communicator_drops`.
void InfoExtractor::fitInitBudget(const CommNode* keep) {
  while (initBytes_ > kMaxInitBytes && commOrder_.size() > 1) {
    CommNode* oldest = commOrder_.front();
    commOrder_.pop_front();
    if (oldest == keep) {  // the one being written: it stays, as the newest in use
      commOrder_.push_back(oldest);
      continue;
    }
    initBytes_ -= kCommBytes + oldest->first.size() + oldest->second.bits.capacity();
    commByKey_.erase(std::string_view(oldest->first));
    comms_.erase(comms_.find(oldest->first));
    ++commsDropped_;
  }
}

InfoExtractor::CommNode* InfoExtractor::newComm(std::string_view key, int nranks) {
  auto* node = &*comms_.try_emplace(std::string(key)).first;
  commByKey_.emplace(std::string_view(node->first), node);
  commOrder_.push_back(node);
  // Sized for the ranks the first line announces: the bits of a rank are then set without a resize.
  auto& bits = node->second.bits;
  bits.reserve((static_cast<std::size_t>(std::min(nranks, kMaxInitRank)) + 3) / 4);
  bits.resize(bits.capacity());
  initBytes_ += kCommBytes + key.size() + bits.capacity();
  fitInitBudget(node);
  return node;
}

void InfoExtractor::feedInit(std::string_view t, bool start, std::uint32_t who) {
  // "... rank 3 nranks 8 cudaDev 3 ... commId 0x1a2b - Init COMPLETE": the words after rank/nranks/commId.
  std::string_view rankWord, nranksWord;
  wordsAfterRankAndNranks(t, rankWord, nranksWord);
  const int rank = rankWord.data() ? atoiView(rankWord) : -1;
  const int nranks = nranksWord.data() ? atoiView(nranksWord) : 0;
  const std::string_view comm = wordAfterLast(t, "commId");
  if (rank < 0 || nranks <= 0) return;
  if (who != procs_.unlistedIndex())
    if (Recent& r = recentOf(who); nranks > r.worldSize) {
      r.worldSize = nranks;
      r.worldRank = rank;
    }
  // Every rank of a communicator logs the same key: the last one's node is usually the one wanted.
  keyBuf_.clear();
  if (comm.empty())
    fmt::format_to(std::back_inserter(keyBuf_), "nranks={}", nranks);
  else
    keyBuf_.append(comm);
  if (!lastComm_ || lastComm_->first.size() != keyBuf_.size() ||
      !sameBytes(lastComm_->first.data(), keyBuf_.data(), keyBuf_.size())) {
    // Ranks of several communicators interleave: a hash look-up, not the ordered map's string compares.
    auto found = commByKey_.find(std::string_view(keyBuf_));
    lastComm_ = found != commByKey_.end() ? found->second : newComm(keyBuf_, nranks);
  }
  Comm& c = lastComm_->second;
  c.nranks = nranks;
  if (rank >= kMaxInitRank) return;
  if (rank >= c.rankSlots()) {  // a rank past the nranks first announced (a crafted or garbled line)
    const std::size_t before = c.bits.capacity();
    c.bits.resize(static_cast<std::size_t>(rank) / 4 + 1);
    initBytes_ += c.bits.capacity() - before;
    fitInitBudget(lastComm_);
  }
  // The first line per rank counts; the rest (the same rank re-initialising) change nothing.
  std::uint8_t& byte = c.bits[static_cast<std::size_t>(rank) / 4];
  const unsigned shift = static_cast<unsigned>(rank % 4) * 2, bit = start ? 1u : 2u, was = (byte >> shift) & 3u;
  if (was & bit) return;
  byte = static_cast<std::uint8_t>(byte | (bit << shift));
  ++(start ? c.ranksStarted : c.ranksCompleted);
  if (!was) ++c.ranksLogged;
}

void InfoExtractor::noteGdrUsed(std::uint32_t who) {
  if (recentOf(who).gdrUsed) return;
  recentOf(who).gdrUsed = true;
  procs_.at(who).gdrUsed = true;
}

void InfoExtractor::noteInterfaces(int kind, std::uint32_t who, std::string_view rest, std::uint64_t hash,
                                   LineEvidence& ev) {
  // The same list as this process's last one changes nothing but the fact's count; another one parsed before
  // (by any process) is the process's now, copied in by fillProcessLists().
  const bool same = sameTextAsBefore(kind, who, rest, hash);
  ParsedText* slot = parsedOf(kind, textOf_[kind][who]);
  bool virt = slot && slot->ready && slot->virt;
  if (!same && !(slot && slot->ready)) {
    std::vector<std::string> ifs = interfaceList(rest, false);
    virt = std::any_of(ifs.begin(), ifs.end(), [](const std::string& i) { return isVirtual(i); });
    if (slot)
      *slot = {true, virt, false, false, std::move(ifs), {}};
    else
      (kind == 1 ? procs_.at(who).bootstrapIfs : procs_.at(who).socketIfs) = std::move(ifs);  // past the caps
  }
  if (virt) addFact(fact::kVirtualInterfaceSelected, ev);
}

void InfoExtractor::noteHcas(std::uint32_t who, std::string_view rest, std::uint64_t hash, LineEvidence& ev) {
  // Printed again at every communicator init; only this branch sets these fields, so the same text for the same
  // process changes nothing (and parsing it allocates a dozen strings).
  if (sameTextAsBefore(0, who, rest, hash)) return;
  ProcessInfo& p = procs_.at(who);
  ParsedText* slot = parsedOf(0, textOf_[0][who]);
  if (!slot) {
    // A text without an id (past the caps): parsed into the process, unless it is the one parsed last.
    if (p.ibUsingText.size() == rest.size() && sameBytes(p.ibUsingText.data(), rest.data(), rest.size())) return;
    p.ibUsingText.assign(rest);
  }
  // A text parsed before (for any process) already noted its link layers: only the process's fields change,
  // the lists by fillProcessLists().
  if (slot && slot->ready) {
    if (slot->hasOob) p.oobIf.assign(slot->oob);
    return;
  }
  std::vector<std::string> hcas = interfaceList(rest, true);
  for (const auto& h : hcas) {
    if (h.ends_with("/RoCE")) sawRoce_ = true;
    if (h.ends_with("/IB") && ibLinkEvidence_.empty()) ibLinkEvidence_.push_back(ev.get());
  }
  const bool relaxed = lineHolds(rest, "[RO]");
  const bool oob = lineHolds(rest, "OOB ");
  if (oob) {
    const auto w = words(after(rest, "OOB "));
    p.oobIf = w.empty() ? std::string() : ifName(w.front());
  }
  if (slot) {
    *slot = {true, false, relaxed, oob, std::move(hcas), oob ? p.oobIf : std::string()};
  } else {
    p.hcas = std::move(hcas);
    p.relaxedOrdering = relaxed;
  }
}

void InfoExtractor::fillProcessLists() {
  for (std::uint32_t who = 0; who < procs_.size(); ++who) {
    ProcessInfo& p = procs_.at(who);
    auto last = [&](int kind) -> const ParsedText* {
      if (who >= textOf_[kind].size()) return nullptr;
      const ParsedText* slot = parsedOf(kind, textOf_[kind][who]);
      return slot && slot->ready ? slot : nullptr;
    };
    if (const ParsedText* s = last(1)) p.bootstrapIfs = s->list;
    if (const ParsedText* s = last(2)) p.socketIfs = s->list;
    if (const ParsedText* s = last(0)) {
      p.hcas = s->list;
      p.relaxedOrdering = s->relaxedOrdering;
    }
  }
}

int InfoExtractor::worldRankOf(std::string_view host, long pid, int worldSize) const {
  if (host.empty() || pid < 0 || worldSize <= 0) return -1;
  const auto who = procs_.find(host, pid);
  if (!who || *who >= recent_.size()) return -1;
  const Recent& r = recent_[*who];
  return r.worldSize == worldSize ? r.worldRank : -1;
}

}  // namespace pf::doctor

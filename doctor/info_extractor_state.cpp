// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The InfoExtractor's bounded per-process and per-communicator state: repeats of a process's lines told by text
// ids, facts kept up to a cap and counted past it, the communicators' Init progress for the last kMaxComms.
#include <fmt/format.h>

#include <iterator>

#include "info_extractor.hpp"
#include "line_search.hpp"
#include "line_words.hpp"

namespace pf::doctor {

bool InfoExtractor::sameTextAsBefore(int kind, std::uint32_t who, std::string_view text) {
  auto& of = textOf_[kind];
  if (of.size() <= who) of.resize(std::size_t{who} + 1, TextIds::kNone);
  const std::uint32_t id = textIds_[kind].idOf(text);
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

// A job restarted many times (an elastic one) creates communicators without end: the Init progress of the
// oldest is dropped, the ranks of the last kMaxComms judged.
void InfoExtractor::dropOldestComm() {
  const std::string key = commOrder_.front();
  commOrder_.erase(commOrder_.begin());
  auto it = comms_.find(key);
  initSeen_.erase(&it->second);
  commByKey_.erase(key);
  comms_.erase(it);
  ++commsDropped_;
}

void InfoExtractor::feedInit(std::string_view t, LineEvidence& ev, bool start) {
  // "... rank 3 nranks 8 cudaDev 3 ... commId 0x1a2b - Init COMPLETE": the words after rank/nranks/commId.
  std::string_view rankWord, nranksWord;
  wordsAfterRankAndNranks(t, rankWord, nranksWord);
  const int rank = rankWord.data() ? atoiView(rankWord) : -1;
  const int nranks = nranksWord.data() ? atoiView(nranksWord) : 0;
  const std::string_view comm = wordAfterLast(t, "commId");
  if (rank < 0 || nranks <= 0) return;
  // Every rank of a communicator logs the same key: the last one's node is usually the one wanted.
  keyBuf_.clear();
  if (comm.empty())
    fmt::format_to(std::back_inserter(keyBuf_), "nranks={}", nranks);
  else
    keyBuf_.append(comm);
  if (!lastComm_ || lastComm_->first.size() != keyBuf_.size() ||
      !sameBytes(lastComm_->first.data(), keyBuf_.data(), keyBuf_.size())) {
    // Ranks of several communicators interleave: a hash look-up, not the ordered map's string compares.
    auto found = commByKey_.find(keyBuf_);
    if (found == commByKey_.end()) {
      auto* node = &*comms_.try_emplace(keyBuf_).first;
      found = commByKey_.emplace(keyBuf_, node).first;
      commOrder_.push_back(keyBuf_);
      if (comms_.size() > kMaxComms) dropOldestComm();
    }
    lastComm_ = found->second;
    lastSeen_ = &initSeen_[&lastComm_->second];
  }
  Comm& c = lastComm_->second;
  c.nranks = nranks;
  auto& byRank = start ? c.started : c.completed;
  // The first line per rank is kept; the rest (the same rank re-initialising) change nothing. A flag per
  // rank answers that without walking the map, which on thousands of ranks cost more than the parsing.
  const std::uint8_t bit = start ? 1 : 2;
  std::vector<std::uint8_t>& seen = *lastSeen_;
  if (rank < (1 << 20)) {
    if (static_cast<std::size_t>(rank) >= seen.size()) seen.resize(static_cast<std::size_t>(rank) + 1);
    if (seen[static_cast<std::size_t>(rank)] & bit) return;
    seen[static_cast<std::size_t>(rank)] |= bit;
  } else if (byRank.count(rank)) {
    return;
  }
  Evidence e = ev.get();
  e.rank = rank;
  byRank.emplace(rank, std::move(e));
}

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Small ids for distinct texts, up to a cap: an open-addressing table of (hash, id) slots over the texts kept in
// order of arrival. It stands where a std::unordered_map<std::string, id> was, on a path taken once per line of a
// kind every rank prints (NCCL's "NET/IB : Using"): the map's prime-modulo bucket and node hop cost more than the
// lookup itself there. The table is sized once for the cap, so it never rehashes and stays at most half full.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "line_search.hpp"

namespace pf::doctor {

class TextIds {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  /// At most `maxTexts` texts of at most `maxLength` bytes get ids (bounds against a crafted log).
  TextIds(std::size_t maxTexts, std::size_t maxLength) : maxTexts_(maxTexts), maxLength_(maxLength) {}

  /// The id of `text` (0, 1, 2... in order of first sight), or kNone for a new text past the caps.
  std::uint32_t idOf(std::string_view text) { return idOf(text, hashOf(text)); }
  /// The same with `hash` = hashOf(text), computed ahead (on another thread).
  static std::uint64_t hashOf(std::string_view text) { return std::hash<std::string_view>{}(text); }
  std::uint32_t idOf(std::string_view text, std::uint64_t hash) {
    if (slots_.empty()) slots_.resize(tableSize());
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = static_cast<std::size_t>(hash) & mask;
    for (; slots_[i].id != kNone; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.hash == hash && s.length == text.size() && sameBytes(arena_.data() + s.offset, text.data(), text.size()))
        return s.id;
    }
    if (count_ >= maxTexts_ || text.size() > maxLength_) return kNone;
    slots_[i] = {hash, count_, static_cast<std::uint32_t>(text.size()), static_cast<std::uint32_t>(arena_.size())};
    arena_.append(text);
    return count_++;
  }

  std::size_t size() const { return count_; }

 private:
  // The texts are kept one after the other in one buffer, found from the slot by offset: a slot and then the
  // text's bytes are the two cache lines a look-up reads (a string per text added a third, its heap pointer),
  // compared inline (line_search.hpp's sameBytes; string == view called memcmp).
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t id = kNone, length = 0, offset = 0;
  };
  std::size_t tableSize() const {  // a power of two at least twice the cap
    std::size_t n = 16;
    while (n < 2 * maxTexts_) n *= 2;
    return n;
  }

  std::size_t maxTexts_, maxLength_;
  std::vector<Slot> slots_;  // allocated at the first lookup: most logs have no such line
  std::string arena_;  // the texts in order of arrival: at most maxTexts * maxLength bytes (4 MiB for the callers)
  std::uint32_t count_ = 0;
};

}  // namespace pf::doctor

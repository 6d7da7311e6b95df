// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "multi_literal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "pf/error.hpp"

namespace pf::doctor {
namespace {

std::uint64_t word(const unsigned char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

// Whether `lit` (at least 8 bytes, its first 8 already equal) is at `t`: word by word, the last word ending
// at the literal's end (overlapping the one before), so nothing past it is read.
bool restEqual(const unsigned char* t, const std::string& lit) {
  const auto* l = reinterpret_cast<const unsigned char*>(lit.data());
  const std::size_t n = lit.size();
  for (std::size_t i = 8; i + 8 <= n; i += 8)
    if (word(t + i) != word(l + i)) return false;
  return n % 8 == 0 || word(t + n - 8) == word(l + n - 8);
}

}  // namespace

int MultiLiteral::add(std::string_view literal) {
  if (literal.size() < kMinLiteral) {
    throw UsageError(
        fmt::format("doctor rules: literal \"{}\" is {} bytes; literals need at least {} so the "
                    "matcher stays fast (add surrounding words)",
                    literal, literal.size(), kMinLiteral));
  }
  for (std::size_t i = 0; i < literals_.size(); ++i) {
    if (literals_[i] == literal) return static_cast<int>(i);
  }
  literals_.emplace_back(literal);
  return static_cast<int>(literals_.size() - 1);
}

void MultiLiteral::compile() {
  m_ = SIZE_MAX;
  for (const auto& l : literals_) m_ = std::min(m_, l.size());
  if (literals_.empty()) m_ = kMinLiteral;
  // The shift is capped at 255 by the table's type; windows are far shorter than that in practice.
  m_ = std::min<std::size_t>(m_, 200);
  const auto defaultShift = static_cast<std::uint8_t>(m_ - kBlock + 1);
  shift_.assign(kTable, defaultShift);
  // Buckets as one flat array (counting sort by hash): building them costs O(literals), not O(table).
  std::vector<std::uint32_t> hashes(literals_.size());
  bucketStart_.assign(kTable + 1, 0);
  for (std::size_t id = 0; id < literals_.size(); ++id) {
    const auto* p = reinterpret_cast<const unsigned char*>(literals_[id].data());
    // Block ending at position q (1-based) within the window may shift the text by m - q.
    for (std::size_t q = kBlock; q <= m_; ++q) {
      const std::uint32_t h = hash(p + q - kBlock);
      shift_[h] = std::min<std::uint8_t>(shift_[h], static_cast<std::uint8_t>(m_ - q));
    }
    hashes[id] = hash(p + m_ - kBlock);
    ++bucketStart_[hashes[id] + 1];
  }
  for (std::size_t h = 0; h < kTable; ++h) bucketStart_[h + 1] += bucketStart_[h];
  candidates_.assign(literals_.size(), {});
  std::vector<std::uint32_t> fill(bucketStart_.begin(), bucketStart_.end() - 1);
  for (std::size_t id = 0; id < literals_.size(); ++id) {
    const auto* p = reinterpret_cast<const unsigned char*>(literals_[id].data());
    candidates_[fill[hashes[id]]++] = {word(p), static_cast<int>(id)};
  }
}

void MultiLiteral::searchInto(std::string_view text, std::vector<std::pair<int, std::size_t>>& hits) const {
  if (literals_.empty() || text.size() < m_) return;
  const auto* base = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t pos = m_ - 1;  // index of the window's last byte
  // The hits of one window position can come from several literals; they are sorted afterwards per window so
  // the offset order holds (all start at the same window start, only their lengths differ).
  while (pos < n) {
    const std::uint32_t h = hash(base + pos + 1 - kBlock);
    const std::uint8_t s = shift_[h];
    if (s != 0) {
      pos += s;
      continue;
    }
    const std::size_t start = pos + 1 - m_;
    // The window is m_ >= 8 bytes, so its first word is inside the text.
    const std::uint64_t head = word(base + start);
    for (std::uint32_t i = bucketStart_[h]; i < bucketStart_[h + 1]; ++i) {
      const Candidate& c = candidates_[i];
      if (c.head != head) continue;
      const std::string& lit = literals_[static_cast<std::size_t>(c.id)];
      if (start + lit.size() <= n && restEqual(base + start, lit)) hits.emplace_back(c.id, start);
    }
    ++pos;
  }
}

void MultiLiteral::search(std::string_view text, const std::function<void(int, std::size_t)>& onHit) const {
  std::vector<std::pair<int, std::size_t>> hits;
  searchInto(text, hits);
  for (const auto& [id, off] : hits) onHit(id, off);
}

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Multi-literal search: finds every occurrence of a set of fixed strings in one pass over a buffer.
//
// Contract: all literals are at least kMinLiteral bytes long; search() reports each (literal id, offset) hit in
// increasing offset order. The algorithm is Wu and Manber's "A fast algorithm for multi-pattern searching"
// (TR-94-17, University of Arizona, 1994): a shift table over 4-byte blocks lets the scan jump up to
// (shortest literal - 3) bytes at a time, so the cost per byte falls as the literals get longer. That is why the
// rules catalog insists on literals of 8 bytes or more (docs/doctor-rules.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pf::doctor {

class MultiLiteral {
 public:
  static constexpr std::size_t kMinLiteral = 8;

  /// Adds a literal and returns its id (ids are dense, in insertion order). Duplicates get the same id.
  /// @throws UsageError when the literal is shorter than kMinLiteral.
  int add(std::string_view literal);
  /// Builds the tables; call after the last add().
  void compile();

  /// Calls onHit(id, offset) for every occurrence, in offset order (several at one offset: in id order).
  void search(std::string_view text, const std::function<void(int, std::size_t)>& onHit) const;
  /// Same, collecting (id, offset) pairs; cheaper than a std::function call per hit in hot loops. Several threads
  /// may search one MultiLiteral at once.
  void searchInto(std::string_view text, std::vector<std::pair<int, std::size_t>>& hits) const;

  std::size_t size() const { return literals_.size(); }
  const std::string& literal(int id) const { return literals_[static_cast<std::size_t>(id)]; }

 private:
  // 4-byte blocks, not the paper's 2 or 3: one 32-bit load per step instead of three byte loads, and a block of
  // log text shares a hash with a literal's block less often, so fewer steps end with a short shift. Both
  // outweigh the longest shift falling from 6 to 5 bytes: on a generated 4,096-rank log the scan ran 1.32x as
  // fast as with 3-byte blocks (docs/performance.md).
  static constexpr int kBlock = 4;
  // Multiplicative (Fibonacci) hashing of the block: the top bits mix all of its bytes, so blocks of log text
  // rarely share a slot with a literal's block (an xor of shifted bytes collided on ASCII: ~25 % more
  // zero-shift windows on NCCL logs).
  static std::uint32_t hash(const unsigned char* p) {
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return (v * 2654435761u) >> (32 - kTableBits);
  }
  static constexpr int kTableBits = 15;
  // The candidates of a zero-shift window are the literals whose first 8 bytes hash like the window's: nearly
  // always those that share them, so a window that only ends like a literal finds an empty bucket. (Buckets by
  // the window's last block, as in the paper, held twice the candidates: 7% of the scan on a 4,096-rank log.)
  static std::uint32_t headHash(std::uint64_t w) {
    return static_cast<std::uint32_t>((w * 0x9E3779B97F4A7C15ull) >> (64 - kTableBits));
  }
  static constexpr std::size_t kTable = std::size_t{1} << kTableBits;

  // A candidate of a bucket: the literal's first and last 8 bytes as words, compared before anything else. Many
  // literals share their first 8 bytes ("NCCL INFO Ring ", "NCCL INFO Trees"; "NET/IB : Using", "NET/IB : No
  // device"), and a window that holds one of them meets the others in its bucket: the last word passes over those
  // without reading their bytes, which are found at an offset into bytes_ (not behind a std::string).
  struct Candidate {
    std::uint64_t head, tail;
    std::uint32_t offset, size;
    int id;
  };

  std::vector<std::string> literals_;
  std::size_t m_ = 0;                       // window: the shortest literal's length
  std::vector<std::uint8_t> shift_;         // kTable entries
  std::vector<std::uint32_t> bucketStart_;  // kTable + 1 entries into candidates_
  std::vector<Candidate> candidates_;       // literals by headHash of their first 8 bytes
  std::string bytes_;                       // every literal, one after the other
  // searchInto scans segments of kSegment window starts in kStreams ranges (its scratch, the zero-shift windows of
  // one segment, is the thread's own: searches from several threads may run at once). With 4-byte blocks 8
  // streams scanned the generated log 7% faster than 4 (with 3-byte blocks, 8 had gained nothing in the whole
  // process).
  static constexpr std::size_t kStreams = 8, kSegment = std::size_t{1} << 16;
};

}  // namespace pf::doctor

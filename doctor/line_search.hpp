// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Finding a short literal in one log line, the doctor's most frequent per-line operation (a large job's log
// has millions of lines, each searched for a few literals). glibc's memmem pays a set-up per call (a shift
// table for its two-way search) that on a ~100-byte line costs more than the search: with it, these calls took
// a fifth of `preflight doctor`'s time on a generated 4,096-rank log (docs/performance.md). string_view::find
// calls memchr for the literal's first byte and memcmp at every occurrence of it.
//
// Here 16 positions are tested at once for the literal's first and last bytes (SSE2, on every x86-64), and
// only positions where both match are compared in full: the "generic SIMD" substring search described by
// Wojciech Muła (http://0x80.pl/articles/simd-strfind.html).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pf::doctor {

/// Whether the `n` bytes at `a` and `b` are equal: 8 bytes at a time, the last word ending at the last byte
/// (overlapping the one before), so nothing past either range is read. Inline: a memcmp call per candidate
/// cost more than the comparison on short literals.
inline bool sameBytes(const char* a, const char* b, std::size_t n) {
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  auto word = [](const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
  };
  for (std::size_t i = 0; i + 8 <= n; i += 8)
    if (word(a + i) != word(b + i)) return false;
  return word(a + n - 8) == word(b + n - 8);
}

/// Whether `s` holds `lit` at offset `at`.
inline bool holdsAt(std::string_view s, std::size_t at, std::string_view lit) {
  return at <= s.size() && s.size() - at >= lit.size() && sameBytes(s.data() + at, lit.data(), lit.size());
}

/// Offset of the first occurrence of `lit` in `line`, or std::string_view::npos (0 for an empty `lit`).
inline std::size_t findInLine(std::string_view line, std::string_view lit) {
  const std::size_t n = line.size(), m = lit.size();
  if (m == 0) return 0;
  if (m > n) return std::string_view::npos;
  const char* h = line.data();
  if (m == 1) {
    const void* p = std::memchr(h, lit[0], n);
    return p ? static_cast<std::size_t>(static_cast<const char*>(p) - h) : std::string_view::npos;
  }
  std::size_t i = 0;
#if defined(__SSE2__)
  if (n >= m + 15) {
    const __m128i first = _mm_set1_epi8(lit[0]), last = _mm_set1_epi8(lit[m - 1]);
    // Block at i covers starts i..i+15; its last-byte load ends at i + m - 1 + 16 <= n.
    auto block = [&](std::size_t at) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + at));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + at + m - 1));
      auto mask =
          static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last))));
      for (; mask != 0; mask &= mask - 1) {
        const auto bit = static_cast<std::size_t>(__builtin_ctz(mask));
        if (sameBytes(h + at + bit + 1, lit.data() + 1, m - 2)) return at + bit;
      }
      return std::string_view::npos;
    };
    for (; i + m + 15 <= n; i += 16)
      if (const std::size_t at = block(i); at != std::string_view::npos) return at;
    // The starts left over: one more block, ending at the line's end. It overlaps starts already ruled out,
    // which cannot match, so what it finds first is the first occurrence. (A byte loop over those last 15
    // starts cost as much as the blocks before it on ~100-byte lines.)
    return i + m - 1 < n ? block(n - m - 15) : std::string_view::npos;
  }
#endif
  for (; i + m <= n; ++i)
    if (h[i] == lit[0] && h[i + m - 1] == lit[m - 1] && sameBytes(h + i + 1, lit.data() + 1, m - 2)) return i;
  return std::string_view::npos;
}

/// Whether `line` holds `lit`.
inline bool lineHolds(std::string_view line, std::string_view lit) {
  return findInLine(line, lit) != std::string_view::npos;
}

/// Newlines in text[from, to). std::count compiles to a byte loop at -O2, which cost more than the whole scan on
/// a multi-GB log; 16 bytes at a time, with byte counters summed every 255 steps, keeps it at memory speed.
inline std::size_t countNewlines(std::string_view text, std::size_t from, std::size_t to) {
  const char* p = text.data();
  std::size_t c = 0, i = from;
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
  while (to - i >= 16) {
    __m128i acc = zero;
    const std::size_t end = i + std::min<std::size_t>((to - i) / 16, 255) * 16;
    for (; i < end; i += 16)
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), nl));
    const __m128i sums = _mm_sad_epu8(acc, zero);
    c += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) + static_cast<std::size_t>(_mm_extract_epi16(sums, 4));
  }
  // The last 1-15 bytes (the gaps between the lines of interest are a line or two, so this runs every time): the
  // 16 bytes that end at `to`, those before `i` masked off, instead of a byte loop.
  if (i < to && to >= 16) {
    // 16 zero bytes then 16 ones: the 16 from offset (to - i) keep the last (to - i) bytes.
    static constexpr char kKeepLast[32] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                           1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    const __m128i hits =
        _mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + to - 16)), nl),
                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(kKeepLast + (to - i))));
    const __m128i sums = _mm_sad_epu8(hits, zero);
    return c + static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) + static_cast<std::size_t>(_mm_extract_epi16(sums, 4));
  }
#endif
  for (; i < to; ++i) c += p[i] == '\n';
  return c;
}

/// Appends the offset of every newline in `text` (shorter than 4 GiB) to `out`, in order: one pass over a block
/// from which a scan then reads any line's bounds and number, where a search back and forth per line (two library
/// calls on a hundred bytes) cost more than the pass.
inline void newlineOffsets(std::string_view text, std::vector<std::uint32_t>& out) {
  const char* p = text.data();
  const std::size_t n = text.size();
  std::size_t i = 0, k = out.size();
  // Room for a line per 32 bytes, more when a chunk could pass the end: written through a pointer, not pushed.
  out.resize(k + n / 32 + 64);
#if defined(__SSE2__)
  // 64 bytes at a time: one mask of their newlines, then one store per newline.
  const __m128i nl = _mm_set1_epi8('\n');
  auto mask16 = [&](std::size_t at) {
    return static_cast<std::uint64_t>(static_cast<unsigned>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at)), nl))));
  };
  for (; i + 64 <= n; i += 64) {
    if (out.size() - k < 64) out.resize(out.size() * 2);
    std::uint64_t m = mask16(i) | mask16(i + 16) << 16 | mask16(i + 32) << 32 | mask16(i + 48) << 48;
    std::uint32_t* dst = out.data() + k;
    for (; m != 0; m &= m - 1) *dst++ = static_cast<std::uint32_t>(i + static_cast<unsigned>(__builtin_ctzll(m)));
    k = static_cast<std::size_t>(dst - out.data());
  }
#endif
  for (; i < n; ++i) {
    if (p[i] != '\n') continue;
    if (k == out.size()) out.resize(out.size() * 2);
    out[k++] = static_cast<std::uint32_t>(i);
  }
  out.resize(k);
}

}  // namespace pf::doctor

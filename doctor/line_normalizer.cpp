// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "line_normalizer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "line_search.hpp"
#include "log_time.hpp"

namespace pf::doctor {
namespace {

// The prefixes' words as string_view literals: a view made from a plain literal inside a loop's initializer
// list is measured with strlen on every call (it showed in profiles of large logs).
using namespace std::string_view_literals;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Digits from `i`; returns the count and stores the value (saturating, so hostile input cannot overflow).
std::size_t readInt(std::string_view s, std::size_t i, long& value) {
  const char *p = s.data() + i, *q = p, *end = s.data() + s.size();
  long v = 0;
  for (unsigned d; q < end && (d = static_cast<unsigned char>(*q) - unsigned{'0'}) < 10; ++q)
    if (v < 100000000000L) v = v * 10 + d;
  value = v;
  return static_cast<std::size_t>(q - p);
}

// The number of digits from `i`, for a number whose value nobody reads (the thread id of NCCL's prefix).
std::size_t skipDigits(std::string_view s, std::size_t i) {
  const char *p = s.data() + i, *q = p, *end = s.data() + s.size();
  while (q < end && static_cast<unsigned char>(*q) - unsigned{'0'} < 10) ++q;
  return static_cast<std::size_t>(q - p);
}

// "[2026-04-22 21:34:20] ", "2024-05-01T10:00:00.123Z ", "2024-05-01 10:00:00,123 ": returns the length eaten.
std::size_t timestampPrefix(std::string_view s) {
  std::size_t i = 0;
  const bool bracket = !s.empty() && s[0] == '[';
  if (bracket) i = 1;
  auto digits = [&](std::size_t k) {
    for (std::size_t j = 0; j < k; ++j)
      if (i + j >= s.size() || !isDigit(s[i + j])) return false;
    i += k;
    return true;
  };
  auto ch = [&](char c) {
    if (i < s.size() && s[i] == c) return ++i, true;
    return false;
  };
  if (!(digits(4) && ch('-') && digits(2) && ch('-') && digits(2))) return 0;
  if (!(ch('T') || ch(' '))) return 0;
  if (!(digits(2) && ch(':') && digits(2) && ch(':') && digits(2))) return 0;
  // Fractions, zone designators and offsets: anything up to the closing bracket or the next space.
  while (i < s.size() && s[i] != ' ' && s[i] != ']') ++i;
  if (bracket && !ch(']')) return 0;
  while (i < s.size() && s[i] == ' ') ++i;
  // The CRI log format used by Kubernetes adds the stream and a partial/full flag.
  if (i < s.size() && s[i] == 's') {
    for (std::string_view tag : {"stdout F "sv, "stderr F "sv, "stdout P "sv, "stderr P "sv}) {
      if (holdsAt(s, i, tag)) i += tag.size();
    }
  }
  return i;
}

// "host:pid:tid [dev] " (host without spaces); fills the fields and returns the length eaten.
std::size_t ncclPrefix(std::string_view s, NormView& out) {
  // The host ends at the first ':' and holds none of " \t[]()". Tested 16 bytes at a time: a byte loop (or
  // find_first_of, which calls memchr on the set for every byte) cost more than the rest of the prefix.
  std::size_t colon = 0;
#if defined(__SSE2__)
  for (; colon + 16 <= s.size() && colon <= 255; colon += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + colon));
    auto eq = [&](char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
    const unsigned stop = static_cast<unsigned>(_mm_movemask_epi8(eq(':')));
    const unsigned bad = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_or_si128(eq(' '), eq('\t')), _mm_or_si128(eq('['), eq(']'))),
                                       _mm_or_si128(eq('('), eq(')')))));
    if ((stop | bad) == 0) continue;
    const unsigned first = static_cast<unsigned>(__builtin_ctz(stop | bad));
    if ((bad >> first) & 1u) return 0;
    colon += first;
    break;
  }
#endif
  for (; colon < s.size() && colon <= 255 && s[colon] != ':'; ++colon) {
    const char c = s[colon];
    if (c == ' ' || c == '\t' || c == '[' || c == ']' || c == '(' || c == ')') return 0;
  }
  if (colon == 0 || colon >= s.size() || colon > 255) return 0;
  long pid = 0, dev = 0;
  std::size_t i = colon + 1, n = readInt(s, i, pid);
  if (n == 0 || i + n >= s.size() || s[i + n] != ':') return 0;
  i += n + 1;
  n = skipDigits(s, i);
  if (n == 0) return 0;
  i += n;
  // Bytes compared one by one: a two-byte string_view comparison is an out-of-line memcmp call, twice per line.
  if (i + 1 >= s.size() || s[i] != ' ' || s[i + 1] != '[') return 0;
  i += 2;
  n = readInt(s, i, dev);
  if (n == 0 || i + n + 1 >= s.size() || s[i + n] != ']' || s[i + n + 1] != ' ') return 0;
  out.host = s.substr(0, colon);
  out.pid = pid;
  out.device = static_cast<int>(dev);
  return i + n + 2;
}

// Launcher tags; returns the length eaten and may set the rank.
std::size_t launcherPrefix(std::string_view s, NormView& out) {
  long v = 0;
  if (!s.empty() && s[0] == '[') {
    std::size_t close = s.find(']');
    if (close == std::string_view::npos || close > 48) return 0;
    std::string_view tag = s.substr(1, close - 1);
    // Open MPI --tag-output: "[1,3]<stdout>:" (job id, rank).
    if (close + 1 < s.size() && s[close + 1] == '<' &&
        (s.substr(close + 1, 9) == "<stdout>:" || s.substr(close + 1, 9) == "<stderr>:")) {
      std::size_t comma = tag.find(',');
      if (comma != std::string_view::npos && readInt(tag, comma + 1, v) > 0) out.launcherRank = static_cast<int>(v);
      return close + 10;
    }
    if (close + 1 >= s.size() || s[close + 1] != ':') return 0;
    if (tag.find(' ') != std::string_view::npos) return 0;
    // torchrun "[default3]:", "[rank3]:"; others ("[trainer0|0]:") are role names without a global rank.
    for (std::string_view p : {"default"sv, "rank"sv}) {
      if (holdsAt(tag, 0, p) && readInt(tag, p.size(), v) > 0) out.launcherRank = static_cast<int>(v);
    }
    return close + 2;
  }
  // Slurm srun -l: "12: ".
  std::size_t n = readInt(s, 0, v);
  if (n > 0 && n < 8 && s.substr(n, 1) == ":" && (n + 1 == s.size() || s[n + 1] == ' ')) {
    out.launcherRank = static_cast<int>(v);
    return n + 1;
  }
  // Ray "(pid=123) " and "(RayWorker pid=123) ".
  if (!s.empty() && s[0] == '(') {
    std::size_t close = s.find(") ");
    if (close != std::string_view::npos && close < 64 && s.substr(0, close).find("pid=") != std::string_view::npos)
      return close + 2;
  }
  return 0;
}

}  // namespace

std::string NormLine::who() const { return view().who(); }

std::string NormView::who() const {
  if (!host.empty()) return fmt::format("{}:{}", host, pid);
  if (launcherRank >= 0) return fmt::format("rank {}", launcherRank);
  return "";
}

std::string validUtf8(std::string_view s) {
  // Logs are nearly always ASCII: copy those straight through.
  if (std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return std::string(s);
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (ok && len > 1) {
      // Reject overlong forms, surrogates and code points past U+10FFFF, as a strict decoder would.
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      if ((len == 2 && c < 0xC2) || (len == 3 && c == 0xE0 && c1 < 0xA0) || (len == 3 && c == 0xED && c1 >= 0xA0) ||
          (len == 4 && c == 0xF0 && c1 < 0x90) || (len == 4 && (c > 0xF4 || (c == 0xF4 && c1 >= 0x90))))
        ok = false;
    }
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

std::string utf8Prefix(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut);
}

std::string stripAnsi(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      std::size_t j = i + 2;
      while (j < s.size() && (isDigit(s[j]) || s[j] == ';')) ++j;
      if (j < s.size()) {
        i = j;  // skip the final byte too
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

// 16 bytes at a time where SSE2 is there (every x86-64).
bool plainAscii(std::string_view s) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i esc = _mm_set1_epi8('\x1b');
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    if (_mm_movemask_epi8(_mm_or_si128(v, _mm_cmpeq_epi8(v, esc))) != 0) return false;
  }
#endif
  for (; i < s.size(); ++i)
    if (s[i] == '\x1b' || static_cast<unsigned char>(s[i]) >= 0x80) return false;
  return true;
}

namespace {

// "host:pid:tid [dev] NCCL INFO " or "... NCCL WARN " at the start of `s`: fills `out` and returns true.
// A host that starts with a letter cannot begin any prefix that normalizeCore peels (each starts with a digit,
// '[', '(' or a blank), and the blank after the NCCL prefix's tid follows a digit, not pdsh's ':'. So where
// this holds, the general path would peel nothing more and read the same prefix and level: most lines of a
// large INFO log take this short way, after their timestamp and launcher tag, if any, are peeled.
bool ncclLineStart(std::string_view& s, NormView& out) {
  if (s.empty() || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) return false;
  NormView v = out;
  const std::size_t n = ncclPrefix(s, v);
  if (n == 0 || s.size() < n + 9 || !holdsAt(s, n, "NCCL ")) return false;
  for (std::string_view lvl : {"INFO"sv, "WARN"sv}) {
    if (holdsAt(s, n + 5, lvl)) {
      out = v;
      out.level = lvl;
      s.remove_prefix(std::min(s.size(), n + 10));
      return true;
    }
  }
  return false;
}

// The prefix peeling shared by normalizeLine and normalizeView: `s` is free of ANSI escapes; the views in
// `out` point into it.
void normalizeCore(std::string_view s, NormView& out) {
  // Prefixes nest in any order (a timestamp inside a torchrun tag inside Kubernetes'); peel until none is left.
  for (int guard = 0; guard < 16; ++guard) {
    while (!s.empty() && (s[0] == ' ' || s[0] == '\t' || s[0] == '\r')) s.remove_prefix(1);
    if (ncclLineStart(s, out)) {
      while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
      out.text = s;
      return;
    }
    // Orphaned colour codes whose escape byte was lost when the log was copied: "[0m", "[1;31m".
    if (s.size() > 2 && s[0] == '[' && isDigit(s[1])) {
      std::size_t j = 1;
      while (j < s.size() && (isDigit(s[j]) || s[j] == ';')) ++j;
      if (j < s.size() && s[j] == 'm') {
        s.remove_prefix(j + 1);
        continue;
      }
    }
    if (std::size_t n = timestampPrefix(s)) {
      if (out.timestamp.empty()) out.timestamp = s.substr(0, n);
      s.remove_prefix(n);
      continue;
    }
    if (std::string_view stamp; std::size_t n = c10LogPrefix(s, stamp)) {
      if (out.timestamp.empty()) out.timestamp = stamp;
      s.remove_prefix(n);
      continue;
    }
    if (std::size_t n = launcherPrefix(s, out)) {
      s.remove_prefix(n);
      continue;
    }
    // pdsh / clush "host: " in front of an NCCL line: a colon right before the line's first blank.
    const void* blank = std::memchr(s.data(), ' ', std::min<std::size_t>(s.size(), 129));
    const std::size_t fs = blank ? static_cast<std::size_t>(static_cast<const char*>(blank) - s.data()) : 0;
    if (fs > 0 && s[fs - 1] == ':') {
      const std::size_t sp = fs - 1;
      NormView probe;
      if (ncclPrefix(s.substr(sp + 2), probe) > 0) {
        s.remove_prefix(sp + 2);
        continue;
      }
    }
    break;
  }
  if (std::size_t n = ncclPrefix(s, out)) s.remove_prefix(n);
  // "[1] NCCL INFO ..." (device only) and "misc/shmutils.cc:88 NCCL WARN ..." (source location first).
  // Only the first 100 bytes can hold an "NCCL " that starts before byte 96.
  if (const std::size_t nccl = findInLine(s.substr(0, 100), "NCCL "); nccl < 96) {
    for (std::string_view lvl : {"INFO"sv, "WARN"sv, "TRACE"sv, "ABORT"sv}) {
      if (s.substr(nccl + 5, lvl.size()) == lvl) {
        out.level = lvl;
        s.remove_prefix(std::min(s.size(), nccl + 5 + lvl.size() + 1));
        break;
      }
    }
  }
  // Trailing '\r' and blanks; validUtf8 never produces either, so trimming before it is the same as after.
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
  out.text = s;
}

}  // namespace

NormLine normalizeLine(std::string_view raw) {
  std::string owned = raw.find('\x1b') == std::string_view::npos ? std::string(raw) : stripAnsi(raw);
  NormView v;
  normalizeCore(owned, v);
  NormLine out;
  out.text = validUtf8(v.text);
  out.host = validUtf8(v.host);
  out.pid = v.pid;
  out.device = v.device;
  out.launcherRank = v.launcherRank;
  out.level = std::string(v.level);
  out.timestamp = validUtf8(v.timestamp);
  return out;
}

bool normalizeView(std::string_view raw, NormView& out, bool knownPlain) {
  // Lines with escapes need a rewritten copy and lines with non-ASCII bytes need validUtf8's replacement:
  // both go through normalizeLine, which owns its strings.
  if (!knownPlain && !plainAscii(raw)) return false;
  out = NormView{};
  normalizeCore(raw, out);
  return true;
}

NormView NormLine::view() const {
  NormView v;
  v.text = text;
  v.host = host;
  v.pid = pid;
  v.device = device;
  v.launcherRank = launcherRank;
  v.level = level;
  v.timestamp = timestamp;
  return v;
}

namespace {

// The newlines nearest a hit are rarely more than a line away: 16 bytes at a time inline, where a memrchr and a
// memchr call each cost more than their search on ~100-byte lines (a few per cent of a large log's run). Both
// fall back to the library for what is left past the first few blocks.
std::size_t lineStartBefore(std::string_view text, std::size_t b) {
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  for (int k = 0; k < 8 && b >= 16; ++k, b -= 16) {
    const auto m = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + b - 16)), nl)));
    if (m) return b - 16 + (31 - static_cast<std::size_t>(__builtin_clz(m))) + 1;
  }
#endif
  const void* p = memrchr(text.data(), '\n', b);
  return p ? static_cast<std::size_t>(static_cast<const char*>(p) - text.data()) + 1 : 0;
}

std::size_t newlineFrom(std::string_view text, std::size_t i) {
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  for (int k = 0; k < 8 && i + 16 <= text.size(); ++k, i += 16) {
    const auto m = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i)), nl)));
    if (m) return i + static_cast<std::size_t>(__builtin_ctz(m));
  }
#endif
  const void* q = std::memchr(text.data() + i, '\n', text.size() - i);
  return q ? static_cast<std::size_t>(static_cast<const char*>(q) - text.data()) : text.size();
}

}  // namespace

std::pair<std::size_t, std::size_t> lineBounds(std::string_view text, std::size_t offset) {
  const std::size_t b = offset > 0 && text[offset - 1] != '\n' ? lineStartBefore(text, offset) : offset;
  std::size_t e = newlineFrom(text, offset);
  if (e > b && text[e - 1] == '\r') --e;
  return {b, e};
}

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reading the words and numbers of one log line without allocating: the INFO extractor and the readers of
// tools' output (nccl-tests, the CUDA samples) call these on every line they are fed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <string_view>

#include "line_search.hpp"

namespace pf::doctor {

/// The text after the first `lit` in `s`; empty when `s` does not hold it.
inline std::string_view after(std::string_view s, std::string_view lit) {
  std::size_t p = findInLine(s, lit);
  return p == std::string_view::npos ? std::string_view() : s.substr(p + lit.size());
}

/// std::atoi on a view: leading white space, a sign, digits; 0 when there are none. Saturates where atoi's
/// behaviour is undefined (hostile input), so a fuzzer cannot trip it.
inline int atoiView(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) ++i;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  long v = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
    if (v < 10000000000L) v = v * 10 + (s[i] - '0');
  v = std::min<long>(v, 2147483647L);
  return static_cast<int>(neg ? -v : v);
}

/// The first whitespace-separated word.
inline std::string_view firstWord(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  std::size_t j = i;
  while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
  return s.substr(i, j - i);
}

/// The word after s[b, e) when that is a whole word (blanks, tabs or the line's ends around it) with a word after
/// it; empty otherwise.
inline std::string_view wordAfterWholeWord(std::string_view s, std::size_t b, std::size_t e) {
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  if ((b > 0 && !blank(s[b - 1])) || e >= s.size() || !blank(s[e])) return {};
  return firstWord(s.substr(e));
}

/// The word after the last whole-word `key` in `s` that has a word after it ("rank" in "... rank 3 nranks 8"
/// gives "3"; "nranks" does not hold the word "rank"); a null view when there is none. Words are separated by
/// blanks and tabs. The same answer as walking every word and keeping the one after `key`, without the walk,
/// which took a sixth of the time `preflight doctor` spent on a log of `Init COMPLETE` lines.
inline std::string_view wordAfterLast(std::string_view s, std::string_view key) {
  std::string_view found;
  for (std::size_t from = 0; from + key.size() <= s.size();) {
    const std::size_t at = findInLine(s.substr(from), key);
    if (at == std::string_view::npos) break;
    const std::size_t b = from + at;
    from = b + 1;
    if (std::string_view w = wordAfterWholeWord(s, b, b + key.size()); !w.empty()) found = w;
  }
  return found;
}

/// wordAfterLast(s, "rank") into `rank` and wordAfterLast(s, "nranks") into `nranks` (each left as it was when
/// there is none), in one search: every "nranks" holds "rank". NCCL's `Init` lines name both; two searches cost
/// 1.5% more instructions on a generated 4,096-rank log.
inline void wordsAfterRankAndNranks(std::string_view s, std::string_view& rank, std::string_view& nranks) {
  for (std::size_t from = 0; from + 4 <= s.size();) {
    const std::size_t at = findInLine(s.substr(from), "rank");
    if (at == std::string_view::npos) break;
    const std::size_t b = from + at;
    from = b + 1;
    if (std::string_view w = wordAfterWholeWord(s, b, b + 4); !w.empty()) rank = w;
    if (b >= 1 && s[b - 1] == 'n' && b + 4 < s.size() && s[b + 4] == 's')
      if (std::string_view w = wordAfterWholeWord(s, b - 1, b + 5); !w.empty()) nranks = w;
  }
}

/// Up to N whitespace-separated words into `out`; returns how many the line has (it may be more than N).
template <std::size_t N>
std::size_t splitWords(std::string_view s, std::string_view (&out)[N]) {
  std::size_t n = 0, i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\r') ++j;
    if (j == i) break;
    if (n < N) out[n] = s.substr(i, j - i);
    ++n;
    i = j;
  }
  return n;
}

/// Whether `w` is a run of decimal digits.
inline bool isDigits(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// A whole word as a finite number ("673.49", "1e+06") into `out`; false for anything else (or a word too long
/// to be one).
inline bool wordNumber(std::string_view w, double& out) {
  if (w.empty() || w.size() > 31) return false;
  char buf[32];
  w.copy(buf, w.size());
  buf[w.size()] = '\0';
  char* end = nullptr;
  out = std::strtod(buf, &end);
  return end == buf + w.size() && out > -1e300 && out < 1e300;
}

}  // namespace pf::doctor

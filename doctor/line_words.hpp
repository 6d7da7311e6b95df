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

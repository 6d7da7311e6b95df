// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "log_time.hpp"

#include <algorithm>

namespace pf::doctor {
namespace {

bool digitAt(std::string_view s, std::size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

// The number of `n` digits at `i`; -1 when they are not all digits.
int digitsAt(std::string_view s, std::size_t i, std::size_t n) {
  int v = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (!digitAt(s, i + k)) return -1;
    v = v * 10 + (s[i + k] - '0');
  }
  return v;
}

// "HH:MM:SS" at `i`, then an optional fraction after '.' or ',' (any number of digits, read to nanoseconds).
std::int64_t timeOfDayAt(std::string_view s, std::size_t i) {
  const int h = digitsAt(s, i, 2), m = digitsAt(s, i + 3, 2), sec = digitsAt(s, i + 6, 2);
  if (h < 0 || m < 0 || sec < 0 || s[i + 2] != ':' || s[i + 5] != ':' || h > 23 || m > 59 || sec > 60) return -1;
  std::int64_t ns = ((h * 60LL + m) * 60 + sec) * 1000000000LL;
  std::size_t p = i + 8;
  if (p < s.size() && (s[p] == '.' || s[p] == ',')) {
    std::int64_t scale = 100000000;
    for (++p; digitAt(s, p); ++p, scale /= 10) ns += scale * (s[p] - '0');
  }
  return ns;
}

}  // namespace

std::optional<LogTime> parseLogTime(std::string_view s) {
  while (!s.empty() && (s.front() == '[' || s.front() == ' ')) s.remove_prefix(1);
  LogTime t;
  // ISO: "YYYY-MM-DD" then 'T' or ' ' then the time.
  if (s.size() >= 19 && digitsAt(s, 0, 4) >= 0 && s[4] == '-' && s[7] == '-' && (s[10] == 'T' || s[10] == ' ')) {
    t.year = digitsAt(s, 0, 4);
    t.month = digitsAt(s, 5, 2);
    t.day = digitsAt(s, 8, 2);
    t.nanos = timeOfDayAt(s, 11);
  } else if (s.size() >= 12 && (s[0] == 'I' || s[0] == 'W' || s[0] == 'E' || s[0] == 'F') && digitAt(s, 1)) {
    // c10: severity, then month (1 or 2 digits) and a two-digit day, a blank, the time.
    std::size_t n = 1;
    while (digitAt(s, n)) ++n;
    if ((n != 4 && n != 5) || n >= s.size() || s[n] != ' ') return std::nullopt;
    t.month = digitsAt(s, 1, n - 3);
    t.day = digitsAt(s, n - 2, 2);
    t.nanos = timeOfDayAt(s, n + 1);
  } else if (s.size() >= 8) {
    t.nanos = timeOfDayAt(s, 0);  // a time of day alone
  }
  if (t.nanos < 0 || (t.month >= 0 && (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31))) return std::nullopt;
  return t;
}

int compareLogTime(const LogTime& a, const LogTime& b) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : x > y ? 1 : 0; };
  if (a.year >= 0 && b.year >= 0 && a.year != b.year) return cmp(a.year, b.year);
  if (a.month >= 0 && b.month >= 0) {
    if (a.month != b.month) return cmp(a.month, b.month);
    if (a.day != b.day) return cmp(a.day, b.day);
  }
  return cmp(a.nanos, b.nanos);
}

std::optional<int> compareStamps(std::string_view a, std::string_view b) {
  const auto x = parseLogTime(a), y = parseLogTime(b);
  if (!x || !y) return std::nullopt;
  return compareLogTime(*x, *y);
}

std::size_t c10LogPrefix(std::string_view s, std::string_view& stamp) {
  if (s.size() < 8 || s[0] != '[' || (s[1] != 'I' && s[1] != 'W' && s[1] != 'E' && s[1] != 'F')) return 0;
  if (s[2] != ' ' && !digitAt(s, 2)) return 0;
  const std::size_t close = s.substr(0, 160).find(']');
  // The tag ends with the source location "file.cpp:632": a digit before ']' and a ':' before those digits.
  if (close == std::string_view::npos || close < 4 || !digitAt(s, close - 1)) return 0;
  std::size_t d = close - 1;
  while (d > 0 && digitAt(s, d)) --d;
  if (s[d] != ':') return 0;
  if (digitAt(s, 2)) {
    const std::size_t blank = s.find(' ', 2);
    const std::size_t end = blank == std::string_view::npos ? close : s.find(' ', blank + 1);
    stamp = s.substr(1, std::min(end, close) - 1);
  }
  std::size_t n = close + 1;
  while (n < s.size() && s[n] == ' ') ++n;
  return n;
}

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "clock.hpp"

#include <fmt/format.h>

#include <array>
#include <cstring>

namespace pf::doctor {
namespace {

// A cursor over the text being read; every reader fails (returns false) without consuming on a mismatch.
struct ClockCursor {
  std::string_view s;
  std::size_t i = 0;
  bool eat(char c) {
    if (i < s.size() && s[i] == c) return ++i, true;
    return false;
  }
  // Exactly `min`..`max` digits.
  bool num(int& out, int min, int max) {
    int n = 0, v = 0;
    while (i + n < s.size() && n < max && s[i + n] >= '0' && s[i + n] <= '9') v = v * 10 + (s[i + n++] - '0');
    if (n < min) return false;
    i += n;
    out = v;
    return true;
  }
  void spaces() {
    while (i < s.size() && s[i] == ' ') ++i;
  }
};

// "HH:MM:SS[.fraction]" into microseconds of the day.
bool clockTime(ClockCursor& c, int64_t& us) {
  int h, m, sec;
  if (!c.num(h, 1, 2) || !c.eat(':') || !c.num(m, 2, 2) || !c.eat(':') || !c.num(sec, 2, 2)) return false;
  if (h > 23 || m > 59 || sec > 60) return false;
  int64_t frac = 0;
  if (c.eat('.') || c.eat(',')) {
    int digits = 0;
    while (c.i < c.s.size() && c.s[c.i] >= '0' && c.s[c.i] <= '9') {
      if (digits < 6) frac = frac * 10 + (c.s[c.i] - '0'), ++digits;
      ++c.i;
    }
    while (digits++ < 6) frac *= 10;
  }
  us = ((h * 60 + m) * 60 + sec) * int64_t{1000000} + frac;
  return true;
}

int monthOf(std::string_view name) {
  static constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (std::size_t k = 0; k < kMonths.size(); ++k)
    if (name.size() >= 3 && std::memcmp(name.data(), kMonths[k], 3) == 0) return static_cast<int>(k) + 1;
  return 0;
}

bool validDate(int y, int m, int d) { return y >= 1970 && y <= 2200 && m >= 1 && m <= 12 && d >= 1 && d <= 31; }

// "YYYY-MM-DD[ T]HH:MM:SS[.f][Z|+HH:MM|+HHMM]".
bool isoStamp(ClockCursor& c, Stamp& st) {
  if (!c.num(st.year, 4, 4) || !c.eat('-') || !c.num(st.month, 2, 2) || !c.eat('-') || !c.num(st.day, 2, 2))
    return false;
  if (!validDate(st.year, st.month, st.day) || !(c.eat(' ') || c.eat('T')) || !clockTime(c, st.usOfDay)) return false;
  st.clock = Clock::kWall;
  if (c.eat('Z')) {
    st.clock = Clock::kUtc;
  } else if (c.i < c.s.size() && (c.s[c.i] == '+' || c.s[c.i] == '-')) {
    const int sign = c.s[c.i] == '-' ? -1 : 1;
    ClockCursor t = c;
    ++t.i;
    int hh, mm = 0;
    if (t.num(hh, 2, 2) && (t.eat(':') ? t.num(mm, 2, 2) : (t.num(mm, 2, 2) || true)) && hh <= 14 && mm < 60) {
      st.clock = Clock::kUtc;
      st.tzMinutes = sign * (hh * 60 + mm);
      c = t;
    }
  }
  return true;
}

// PyTorch's c10 logging and glog: severity letter, month (1-2 digits, glog pads to 2), day (2 digits), time.
bool glogStamp(ClockCursor& c, Stamp& st) {
  if (c.i >= c.s.size() || std::strchr("IWEF", c.s[c.i]) == nullptr || c.s[c.i] == 0) return false;
  ++c.i;
  int md;
  const std::size_t from = c.i;
  if (!c.num(md, 3, 4)) return false;
  const std::size_t digits = c.i - from;
  st.month = md / 100;
  st.day = md % 100;
  if (digits == 4 && c.s[from] != '0' && c.s[from] != '1') return false;
  if (st.month < 1 || st.month > 12 || st.day < 1 || st.day > 31 || !c.eat(' ')) return false;
  if (!clockTime(c, st.usOfDay)) return false;
  st.clock = Clock::kWallNoYear;
  return true;
}

// "Wed Dec  2 09:19:05 2026" (dmesg -T) or "Dec  2 09:19:05" (syslog, no year).
bool ctimeStamp(ClockCursor& c, Stamp& st) {
  auto word = [&]() { return c.s.substr(c.i, std::min<std::size_t>(3, c.s.size() - c.i)); };
  ClockCursor t = c;
  static constexpr std::array<const char*, 7> kDays = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  bool weekday = false;
  for (const char* d : kDays)
    if (t.s.substr(t.i).starts_with(d) && t.i + 3 < t.s.size() && t.s[t.i + 3] == ' ') weekday = true;
  if (weekday) {
    t.i += 4;
    t.spaces();
  }
  c = t;
  st.month = monthOf(word());
  if (st.month == 0 || c.i + 3 >= c.s.size() || c.s[c.i + 3] != ' ') return false;
  c.i += 4;
  c.spaces();
  if (!c.num(st.day, 1, 2) || !c.eat(' ') || !clockTime(c, st.usOfDay)) return false;
  st.clock = Clock::kWallNoYear;
  ClockCursor y = c;
  y.spaces();
  if (weekday && y.num(st.year, 4, 4) && validDate(st.year, st.month, st.day)) {
    st.clock = Clock::kWall;
    c = y;
  } else if (weekday) {
    return false;  // dmesg -T always prints the year
  }
  return st.day >= 1 && st.day <= 31;
}

// "12345.678901" seconds since boot, inside brackets.
bool bootStamp(ClockCursor& c, Stamp& st) {
  c.spaces();
  int64_t secs = 0;
  int n = 0;
  while (c.i < c.s.size() && c.s[c.i] >= '0' && c.s[c.i] <= '9' && n < 10) secs = secs * 10 + (c.s[c.i++] - '0'), ++n;
  if (n == 0 || !c.eat('.')) return false;
  int frac = 0;
  const std::size_t from = c.i;
  if (!c.num(frac, 6, 6) || c.i - from != 6) return false;
  st.clock = Clock::kBoot;
  st.bootUs = secs * 1000000 + frac;
  return true;
}

// The civil date of a day count since 1970-01-01 (the inverse of daysFromCivil).
void civilFromDays(int64_t days, int& y, int& m, int& d) {
  const int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097, doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
  d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  y = static_cast<int>(yoe + era * 400 + (m <= 2));
}

}  // namespace

Stamp parseStamp(std::string_view s, std::size_t* used) {
  ClockCursor c{s};
  c.spaces();
  const std::size_t start = c.i;
  const bool bracket = c.eat('[');
  Stamp st;
  for (auto reader : {isoStamp, glogStamp, ctimeStamp, bootStamp}) {
    ClockCursor t = c;
    Stamp cand;
    if (!reader(t, cand)) continue;
    // A bracketed stamp must close (glog's bracket closes after the pid and file: any text may follow).
    if (bracket && cand.clock != Clock::kWallNoYear && !t.eat(']')) continue;
    if (!bracket && cand.clock == Clock::kBoot) continue;
    cand.text = std::string(s.substr(start, t.i - start));
    t.eat(' ');
    if (used) *used = t.i;
    return cand;
  }
  if (used) *used = 0;
  return st;
}

Stamp parseEpochSeconds(std::string_view s) {
  Stamp st;
  int64_t v = 0;
  std::size_t n = 0;
  while (n < s.size() && n < 12 && s[n] >= '0' && s[n] <= '9') v = v * 10 + (s[n++] - '0');
  if (n == 0 || n != s.size() || v < 978307200 || v > 4102444800) return st;  // 2001 .. 2100
  civilFromDays(v / 86400, st.year, st.month, st.day);
  st.usOfDay = (v % 86400) * 1000000;
  st.clock = Clock::kUtc;
  st.text = std::string(s);
  return st;
}

int64_t daysFromCivil(int y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::optional<int64_t> toUtcUs(const Stamp& s, int localOffsetMin, int year, std::optional<int64_t> bootEpochUs) {
  auto civil = [&](int y) { return daysFromCivil(y, s.month, s.day) * 86400 * int64_t{1000000} + s.usOfDay; };
  switch (s.clock) {
    case Clock::kUtc: return civil(s.year) - s.tzMinutes * int64_t{60000000};
    case Clock::kWall: return civil(s.year) - localOffsetMin * int64_t{60000000};
    case Clock::kWallNoYear:
      if (year == 0) return std::nullopt;
      return civil(year) - localOffsetMin * int64_t{60000000};
    case Clock::kBoot:
      if (!bootEpochUs) return std::nullopt;
      return *bootEpochUs + s.bootUs;
    case Clock::kNone: break;
  }
  return std::nullopt;
}

std::string isoUtc(int64_t us) {
  const int64_t days = us >= 0 ? us / 86400000000 : (us - 86399999999) / 86400000000;
  const int64_t rest = us - days * 86400000000;
  int y, m, d;
  civilFromDays(days, y, m, d);
  const int64_t secs = rest / 1000000;
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", y, m, d, secs / 3600, secs / 60 % 60, secs % 60,
                     rest % 1000000);
}

}  // namespace pf::doctor

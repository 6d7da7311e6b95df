// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The times in a kernel log and `--xid-since`: a /dev/kmsg record's "priority,sequence,microseconds,flags;" prefix
// (Documentation/ABI/testing/dev-kmsg in the kernel tree: the time is microseconds since boot), dmesg's
// "[seconds.micros]" since boot, and dmesg --time-format iso's "YYYY-MM-DDTHH:MM:SS,micros+HH:MM".
#include <fmt/format.h>

#include <cctype>
#include <ctime>

#include "pf/error.hpp"
#include "pf/kernel_log.hpp"

namespace pf {
namespace {

// Reads exactly `n` digits at `at` into `out`.
bool digits(std::string_view s, std::size_t& at, int n, int& out) {
  out = 0;
  for (int i = 0; i < n; ++i, ++at) {
    if (at >= s.size() || !std::isdigit(static_cast<unsigned char>(s[at]))) return false;
    out = out * 10 + (s[at] - '0');
  }
  return true;
}

// An unsigned decimal number at `at` (at most 18 digits, so it fits); nullopt when there is none.
std::optional<int64_t> number(std::string_view s, std::size_t& at) {
  int64_t v = 0;
  std::size_t n = 0;
  for (; at < s.size() && n < 18 && std::isdigit(static_cast<unsigned char>(s[at])); ++at, ++n)
    v = v * 10 + (s[at] - '0');
  if (n == 0) return std::nullopt;
  return v;
}

// Microseconds from a fraction's digits after the separator ("123456" -> 123456, "5" -> 500000).
int64_t fractionUs(std::string_view s, std::size_t& at) {
  int64_t us = 0, scale = 100000;
  for (; at < s.size() && std::isdigit(static_cast<unsigned char>(s[at])); ++at, scale /= 10)
    if (scale > 0) us += (s[at] - '0') * scale;
  return us;
}

// "YYYY-MM-DD[T ]HH:MM[:SS[.,frac]](Z|+HH:MM|-HH:MM|+HHMM)" at the start of `s`: microseconds since the epoch.
// `zoneMissing` is set when all but the zone was there (a local time: which zone it is cannot be told).
std::optional<int64_t> isoTime(std::string_view s, std::size_t* used = nullptr, bool* zoneMissing = nullptr) {
  std::size_t at = 0;
  int y, mo, d, h, mi, sec = 0;
  if (!digits(s, at, 4, y) || at >= s.size() || s[at++] != '-' || !digits(s, at, 2, mo) || at >= s.size() ||
      s[at++] != '-' || !digits(s, at, 2, d) || at >= s.size() || (s[at] != 'T' && s[at] != ' ') ||
      !digits(s, ++at, 2, h) || at >= s.size() || s[at++] != ':' || !digits(s, at, 2, mi))
    return std::nullopt;
  int64_t us = 0;
  if (at < s.size() && s[at] == ':') {
    if (!digits(s, ++at, 2, sec)) return std::nullopt;
    if (at < s.size() && (s[at] == '.' || s[at] == ',')) us = fractionUs(s, ++at);
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return std::nullopt;
  int offsetMin = 0;
  if (at < s.size() && (s[at] == 'Z' || s[at] == 'z')) {
    ++at;
  } else if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
    const int sign = s[at++] == '-' ? -1 : 1;
    int oh, om;
    if (!digits(s, at, 2, oh)) return std::nullopt;
    if (at < s.size() && s[at] == ':') ++at;
    if (!digits(s, at, 2, om) || oh > 14 || om > 59) return std::nullopt;
    offsetMin = sign * (oh * 60 + om);
  } else {
    if (zoneMissing) *zoneMissing = true;
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = sec;
  const int64_t epoch = static_cast<int64_t>(timegm(&tm));  // UTC fields to seconds since the epoch (glibc, BSD)
  if (tm.tm_mday != d) return std::nullopt;                 // 31 April: timegm moved it to 1 May
  if (used) *used = at;
  return (epoch - int64_t{offsetMin} * 60) * 1000000 + us;
}

}  // namespace

KernelLogTime kernelLogTime(std::string_view raw) {
  KernelLogTime t;
  std::size_t at = 0;
  // "priority,sequence,microseconds,flags;message": three numbers, then the flags up to the ';'.
  const auto priority = number(raw, at);
  if (priority && at < raw.size() && raw[at] == ',' && number(raw, ++at) && at < raw.size() && raw[at] == ',') {
    const auto us = number(raw, ++at);
    if (us && at < raw.size() && raw[at] == ',' && raw.find(';', at) < 64) {
      t.bootUs = us;
      return t;
    }
  }
  at = 0;
  if (!raw.empty() && raw[0] == '[') {  // dmesg: "[    5.123456] message"
    at = 1;
    while (at < raw.size() && raw[at] == ' ') ++at;
    const auto secs = number(raw, at);
    if (secs && at < raw.size() && raw[at] == '.') {
      const int64_t us = fractionUs(raw, ++at);
      if (at < raw.size() && raw[at] == ']') t.bootUs = *secs * 1000000 + us;
    }
    return t;
  }
  t.epochUs = isoTime(raw);  // dmesg --time-format iso
  return t;
}

KernelLogSince parseKernelLogSince(std::string_view text, std::string_view option) {
  KernelLogSince s;
  s.text = std::string(text);
  if (text == "boot") return s;
  auto refuse = [&](const std::string& why) -> UsageError {
    return UsageError(fmt::format(
        "{} '{}': {}; give a time with its zone (2026-12-02T10:00:00Z, 2026-12-02T11:00:00+01:00: `date -Iseconds`), "
        "@SECONDS since the epoch (`date +%s`), a duration before now (90s, 30m, 2h, 1d) or boot",
        option, text, why));
  };
  std::size_t used = 0;
  bool zoneMissing = false;
  if (auto t = isoTime(text, &used, &zoneMissing)) {
    if (used != text.size()) throw refuse("text after the time");
    s.epochUs = t;
    return s;
  }
  if (zoneMissing) throw refuse("the time has no zone, so which moment it names is not known");
  if (text.size() > 4 && text[4] == '-' && std::isdigit(static_cast<unsigned char>(text[0])))
    throw refuse("not a valid date and time");
  std::size_t at = text.starts_with('@') ? 1 : 0;
  const auto n = number(text, at);
  if (!n) throw refuse("not a time or a duration");
  if (text.starts_with('@')) {
    if (at != text.size()) throw refuse("text after the seconds");
    s.epochUs = *n * 1000000;
    return s;
  }
  const std::string_view unit = text.substr(at);
  const int64_t seconds = unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : unit == "d" ? 86400 : 0;
  if (seconds == 0)
    throw refuse(unit.empty() ? "a duration needs its unit" : "unknown unit '" + std::string(unit) + "'");
  if (*n > 3650 * 86400 / seconds) throw refuse("longer than ten years");
  s.lastUs = *n * seconds * 1000000;
  return s;
}

std::string isoUtcSeconds(int64_t epochUs) {
  const std::time_t secs = static_cast<std::time_t>(epochUs / 1000000 - (epochUs % 1000000 < 0 ? 1 : 0));
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec);
}

}  // namespace pf

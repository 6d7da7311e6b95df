// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What launchers and loggers put before each line of nccl-tests' output. Rather than one case per launcher,
// a line loses, again and again, whichever of a few shapes of prefix starts it, until none does, so any
// stacking of them reads (Ray around Open MPI, srun around a timestamp, ...). The shapes:
//   [tag] or [tag]<stream>:  Open MPI --tag-output "[1,0]<stdout>:", MPICH "[0]", kubectl --prefix
//                            "[pod/x/c]", bracketed timestamps "[2025-01-01 10:00:00]"
//   (key=value ...)          Ray's "(head, rank=0, pid=3808)", "(RayTrainWorker pid=1, ip=10.0.0.2)"; the '='
//                            keeps nccl-tests' units line "(B) (elements) (us)" pasted without its '#' apart
//   label:                   srun --label "12: ", pdsh "node-3: " (a label with a digit in it)
//   timestamps               ISO "2025-01-01T10:00:00.5Z" / "2025-01-01 10:00:00,123", a bare "10:00:00",
//                            syslog "Jan  1 10:00:00" (with "host prog[pid]:" after it when present)
// nccl-tests itself never starts a line with '[', '(' or a time, and its words before a colon ("nThreads:",
// "rccl-tests:") have no digit, so none of its own text is taken for a prefix. A shape needs a letter or digit
// inside ("[...]" is a cut in a pasted excerpt, not a tag).
#include <string_view>

#include "text_lines.hpp"

namespace pf::import {
namespace {

bool isDigitChar(char c) { return c >= '0' && c <= '9'; }
bool isAlphaChar(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isSpaceChar(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
bool endsWord(std::string_view s, size_t i) { return i >= s.size() || isSpaceChar(s[i]); }

std::string_view trimBlanks(std::string_view s) {
  while (!s.empty() && isSpaceChar(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpaceChar(s.back())) s.remove_suffix(1);
  return s;
}

// Digits at i: how many (0 when none), at most `most`.
size_t digitsAt(std::string_view s, size_t i, size_t most = 20) {
  size_t n = 0;
  while (i + n < s.size() && n < most && isDigitChar(s[i + n])) ++n;
  return n;
}

// "[...]" / "(...=...)" with no nesting, a letter or digit inside, at most 200 bytes; then "<word>" and ':' may
// follow.
size_t enclosedTag(std::string_view s) {
  if (s.empty() || (s[0] != '[' && s[0] != '(')) return 0;
  const char close = s[0] == '[' ? ']' : ')';
  bool named = false, keyed = false;
  size_t i = 1;
  for (; i < s.size() && i < 200 && s[i] != close; ++i) {
    if (s[i] == '[' || s[i] == '(' || s[i] == '\n') return 0;
    named = named || isDigitChar(s[i]) || isAlphaChar(s[i]);
    keyed = keyed || s[i] == '=';
  }
  if (i >= s.size() || s[i] != close || !named || (close == ')' && !keyed)) return 0;
  ++i;
  if (i < s.size() && s[i] == '<') {  // Open MPI's stream name: <stdout>, <stderr>, <stddiag>
    size_t j = i + 1;
    while (j < s.size() && isAlphaChar(s[j])) ++j;
    if (j < s.size() && s[j] == '>' && j > i + 1) i = j + 1;
  }
  if (i < s.size() && s[i] == ':') ++i;
  return i;
}

// "12: " or "node-3.cluster: ": a host or rank label with at least one digit, then ':' and a blank (or the end),
// which keeps "host:pid:tid" (NCCL's log prefix) and "12:34:56" out.
size_t hostLabel(std::string_view s) {
  size_t i = 0;
  bool digit = false;
  for (;
       i < s.size() && i < 128 && (isDigitChar(s[i]) || isAlphaChar(s[i]) || s[i] == '.' || s[i] == '-' || s[i] == '_');
       ++i)
    digit = digit || isDigitChar(s[i]);
  if (i == 0 || !digit || i >= s.size() || s[i] != ':' || !endsWord(s, i + 1)) return 0;
  return i + 1;
}

// "10:00:00", "10:00:00.123" or "10:00:00,123" at i; returns the end, or 0.
size_t clockAt(std::string_view s, size_t i) {
  size_t h = digitsAt(s, i, 2);
  if (h == 0 || i + h + 6 > s.size() || s[i + h] != ':' || digitsAt(s, i + h + 1, 2) != 2 || s[i + h + 3] != ':' ||
      digitsAt(s, i + h + 4, 2) != 2)
    return 0;
  i += h + 6;
  if (i + 1 < s.size() && (s[i] == '.' || s[i] == ',') && digitsAt(s, i + 1) > 0) i += 1 + digitsAt(s, i + 1);
  return i;
}

// "2025-01-01", then optionally 'T' or ' ' and a clock, and a zone ("Z", "+02:00", "-0500"); then ':' may follow.
size_t isoStamp(std::string_view s) {
  if (digitsAt(s, 0, 4) != 4 || s.size() < 10 || s[4] != '-' || digitsAt(s, 5, 2) != 2 || s[7] != '-' ||
      digitsAt(s, 8, 2) != 2)
    return 0;
  size_t i = 10;
  if (i < s.size() && (s[i] == 'T' || s[i] == ' '))
    if (size_t e = clockAt(s, i + 1)) {
      i = e;
      if (i < s.size() && s[i] == 'Z') {
        ++i;
      } else if (i < s.size() && (s[i] == '+' || s[i] == '-') && digitsAt(s, i + 1, 2) == 2) {
        size_t j = i + 3;
        if (j < s.size() && s[j] == ':') ++j;
        if (digitsAt(s, j, 2) == 2) i = j + 2;
      }
    }
  if (i < s.size() && s[i] == ':') ++i;
  return endsWord(s, i) ? i : 0;
}

// A bare clock "10:00:00.5" (ts -s, many loggers), then ':' may follow.
size_t bareClock(std::string_view s) {
  size_t i = clockAt(s, 0);
  if (i == 0) return 0;
  if (i < s.size() && s[i] == ':') ++i;
  return endsWord(s, i) ? i : 0;
}

// "Jan  1 10:00:00" (syslog, moreutils ts), and after it syslog's "host prog[pid]:" or "host prog:" if present.
size_t syslogStamp(std::string_view s) {
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  bool month = false;
  for (std::string_view m : kMonths) month = month || s.substr(0, 4) == std::string(m) + " ";
  if (!month) return 0;
  size_t i = 4;
  while (i < s.size() && s[i] == ' ') ++i;
  size_t d = digitsAt(s, i, 2);
  if (d == 0 || i + d >= s.size() || s[i + d] != ' ') return 0;
  size_t end = clockAt(s, i + d + 1);
  if (end == 0 || !endsWord(s, end)) return 0;
  // "host prog[123]: " after the stamp: two words, the second ending in ':'.
  size_t h = end;
  while (h < s.size() && s[h] == ' ') ++h;
  size_t hostEnd = h;
  while (hostEnd < s.size() && !isSpaceChar(s[hostEnd])) ++hostEnd;
  size_t p = hostEnd;
  while (p < s.size() && s[p] == ' ') ++p;
  size_t progEnd = p;
  while (progEnd < s.size() && !isSpaceChar(s[progEnd])) ++progEnd;
  if (hostEnd > h && s[h] != '#' && progEnd > p + 1 && s[progEnd - 1] == ':' && s[hostEnd - 1] != ':') return progEnd;
  return end;
}

}  // namespace

std::string_view stripLauncherPrefix(std::string_view line) {
  std::string_view s = trimBlanks(line);
  // Every round removes at least one byte, so this ends; the order of the shapes does not matter.
  for (;;) {
    size_t n = enclosedTag(s);
    if (n == 0) n = hostLabel(s);
    if (n == 0) n = isoStamp(s);
    if (n == 0) n = bareClock(s);
    if (n == 0) n = syslogStamp(s);
    if (n == 0) return s;
    s = trimBlanks(s.substr(n));
  }
}

}  // namespace pf::import

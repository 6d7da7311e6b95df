// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One data row of nccl-tests' table. util.cu prints "%12li  %12li  %8s  %6s  %6s" (size, count, type, redop,
// root) and then, per half, "  %7s  %6s  %6s  %6g" (time, algbw, busbw, #wrong) with -I's four more columns,
// and -S's timestamp at the end. Older versions had no redop or root column and an `error` column (the largest
// difference, e.g. 0e+00) instead of #wrong. Numbers come from getFloatStr: %.2f, %.1f, %.0f or %.1e.
#include <fmt/format.h>

#include <algorithm>

#include "text_lines.hpp"

namespace pf::import {
namespace {

bool isDate(const std::string& s) {  // 2025-10-01
  return s.size() == 10 && s[4] == '-' && s[7] == '-' && parseUnsigned(s.substr(0, 4)) &&
         parseUnsigned(s.substr(5, 2)) && parseUnsigned(s.substr(8, 2));
}
bool isClock(const std::string& s) {  // 12:34:56
  return s.size() == 8 && s[2] == ':' && s[5] == ':' && parseUnsigned(s.substr(0, 2)) &&
         parseUnsigned(s.substr(3, 2)) && parseUnsigned(s.substr(6, 2));
}

// MPICH's -prepend-rank writes "[0]" before every printf, so one row reads "[0]  8  2  float  sum  -1[0]
// 45.8 ...": the tags are removed wherever they stand.
void dropRankTags(std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (std::string w : words) {
    for (size_t at = w.find('['); at != std::string::npos; at = w.find('[', at)) {
      size_t close = w.find(']', at);
      if (close == std::string::npos || close == at + 1 ||
          !std::all_of(w.begin() + at + 1, w.begin() + close, [](char c) { return c >= '0' && c <= '9'; })) {
        ++at;
        continue;
      }
      w.erase(at, close - at + 1);
    }
    if (!w.empty()) out.push_back(w);
  }
  words.swap(out);
}

std::optional<double> measurement(const std::string& w, const char* what, std::string& error) {
  auto v = parseNumber(w);
  if (!v || *v < 0) {
    error = fmt::format("'{}' is not a {} value", cleanText(w, 32), what);
    return std::nullopt;
  }
  return v;
}

// One half: time algbw busbw #wrong [i_min i_max i_p99 i_cv%]. Returns false on an unreadable column.
bool parseHalf(const std::vector<std::string>& w, size_t at, const Layout& l, bool inferred, SweepRow& row,
               bool& present, std::string& error) {
  present = !(w[at] == "N/A" && w[at + 1] == "N/A" && w[at + 2] == "N/A");
  if (!present) return true;
  auto t = measurement(w[at], "time", error);
  auto alg = t ? measurement(w[at + 1], "algbw", error) : std::nullopt;
  auto bus = alg ? measurement(w[at + 2], "busbw", error) : std::nullopt;
  if (!bus) return false;
  row.time_us = *t;
  row.algbw_gbps = *alg;
  row.busbw_gbps = *bus;
  const std::string& wrong = w[at + 3];
  if (wrong != "N/A") {
    auto v = parseNumber(wrong);
    if (!v || *v < 0) {
      error = fmt::format("'{}' is not a #wrong value", cleanText(wrong, 32));
      return false;
    }
    // A count is printed with %6g ("0", "12", "1e+06"); the old error column is a fraction ("5e-07") and
    // says nothing about how many elements were wrong, so it gives no count.
    bool integral = *v == static_cast<double>(static_cast<int64_t>(std::min(*v, 9.0e18)));
    bool looksLikeError = wrong.find_first_of(".eE") != std::string::npos && (inferred || !integral);
    if (!l.errorColumn && !looksLikeError && integral) row.wrong = static_cast<int64_t>(*v);
    if (!l.errorColumn && !inferred && !integral) {
      error = fmt::format("'{}' is not a #wrong count", cleanText(wrong, 32));
      return false;
    }
  }
  if (l.halfCols == 8) {
    std::optional<double>* iter[3] = {&row.iter_min_us, &row.iter_max_us, &row.iter_p99_us};
    for (int k = 0; k < 4; ++k) {
      const std::string& v = w[at + 4 + k];
      if (v == "N/A") continue;
      auto n = measurement(v, k == 3 ? "i_cv%" : "per-iteration", error);
      if (!n) return false;
      if (k < 3) *iter[k] = *n;  // i_cv% has no field in SweepRow
    }
  }
  return true;
}

}  // namespace

std::optional<Layout> layoutFromHeader(const std::vector<std::string>& words) {
  auto has = [&](const char* w) { return std::find(words.begin(), words.end(), w) != words.end(); };
  if (!(has("size") || has("bytes")) || !has("algbw")) return std::nullopt;
  auto isTime = [](const std::string& w) { return w == "time" || w == "cputime"; };
  auto first = std::find_if(words.begin(), words.end(), isTime);
  if (first == words.end()) return std::nullopt;
  auto second = std::find_if(first + 1, words.end(), isTime);
  Layout l;
  l.redop = std::find(words.begin(), first, "redop") != first || std::find(words.begin(), first, "op") != first;
  l.root = std::find(words.begin(), first, "root") != first;
  l.timestamp = words.back() == "timestamp";
  l.errorColumn = has("error") || has("res");
  l.halfCols = static_cast<int>((second == words.end() ? words.end() - (l.timestamp ? 1 : 0) : second) - first);
  if (l.halfCols != 4 && l.halfCols != 8) return std::nullopt;
  return l;
}

std::optional<std::vector<SweepRow>> parseRow(std::vector<std::string> w, const Layout* known, std::string& error) {
  dropRankTags(w);
  if (w.size() >= 2 && isDate(w[w.size() - 2]) && isClock(w.back())) w.resize(w.size() - 2);
  if (w.size() < 3) {
    error = fmt::format("a row cut short ({} columns)", w.size());
    return std::nullopt;
  }
  SweepRow row;
  auto size = parseUnsigned(w[0]);
  auto count = parseUnsigned(w[1]);
  if (!size || !count) {
    error = fmt::format("'{} {}' is not a size and an element count", cleanText(w[0], 24), cleanText(w[1], 24));
    return std::nullopt;
  }
  row.size_bytes = *size;
  row.count = *count;
  if (elementSize(w[2]) == 0) {
    error = fmt::format("'{}' is not a data type nccl-tests prints", cleanText(w[2], 24));
    return std::nullopt;
  }
  row.dtype = w[2];
  // The buffer is count elements; a count whose bytes do not fit 64 bits is no row nccl-tests could print, and
  // every later size arithmetic (count * element size) would wrap.
  if (uint64_t bytes = 0; __builtin_mul_overflow(row.count, static_cast<uint64_t>(elementSize(row.dtype)), &bytes)) {
    error = fmt::format("count {} of {} elements does not fit 64 bits of bytes", row.count, row.dtype);
    return std::nullopt;
  }
  Layout l = known ? *known : Layout{};
  if (!known) {
    // No header: the prefix from the row itself. A redop is a word; what follows it is an odd number of
    // columns when there is a root (root + 2 halves of 4 or 8), an even number when there is none.
    l.redop = w.size() > 3 && knownOp(w[3]);
    size_t rest = w.size() - 3 - (l.redop ? 1 : 0);
    l.root = rest % 2 == 1;
    l.halfCols = (rest - (l.root ? 1 : 0)) == 16 ? 8 : 4;
  }
  size_t at = 3;
  row.op = "none";
  if (l.redop) {
    if (at >= w.size() || !knownOp(w[at])) {
      error = fmt::format("'{}' is not a reduction op", at < w.size() ? cleanText(w[at], 24) : "");
      return std::nullopt;
    }
    row.op = w[at++];
  }
  if (l.root) {
    auto r = at < w.size() ? parseNumber(w[at]) : std::nullopt;
    if (!r || *r < -1 || *r > 1e7 || *r != static_cast<double>(static_cast<int>(*r))) {
      error = fmt::format("'{}' is not a root rank", at < w.size() ? cleanText(w[at], 24) : "");
      return std::nullopt;
    }
    row.root = static_cast<int>(*r);
    ++at;
  }
  const size_t hc = static_cast<size_t>(l.halfCols);
  const size_t rest = w.size() - at;
  std::vector<const char*> placements;
  if (rest == 2 * hc) placements = {"out", "in"};
  if (rest == hc && known) placements = {"in"};  // util.cu prints blanks for a missing out-of-place half
  if (placements.empty()) {
    error = fmt::format("expected {} columns, found {}", at + 2 * hc, w.size());
    return std::nullopt;
  }
  std::vector<SweepRow> out;
  for (const char* p : placements) {
    SweepRow half = row;
    half.placement = p;
    bool present = false;
    if (!parseHalf(w, at, l, known == nullptr, half, present, error)) return std::nullopt;
    if (present) out.push_back(std::move(half));
    at += hc;
  }
  return out;
}

}  // namespace pf::import

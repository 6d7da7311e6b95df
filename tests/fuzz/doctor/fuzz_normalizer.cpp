// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: the line normaliser and line bounds must accept any bytes (logs are pasted from anywhere),
// and the in-line literal search must answer what string_view::find answers (a needle cut from the input).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "line_normalizer.hpp"
#include "line_search.hpp"
#include "rank_analysis.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view s(reinterpret_cast<const char*>(data), size);
  pf::doctor::NormLine l = pf::doctor::normalizeLine(s);
  // The message comes from a suffix of the input; each invalid byte may become a 3-byte U+FFFD, no more.
  if (l.text.size() > 3 * size) __builtin_trap();
  pf::doctor::WatchdogEntry w;
  pf::doctor::parseWatchdog(l, w);
  (void)pf::doctor::rankOfLine(l);
  if (size > 0) {
    auto [b, e] = pf::doctor::lineBounds(s, data[0] % size);
    if (b > e || e > size) __builtin_trap();
    // Needle: the bytes after the first, as many as the first byte says (mod 48); haystack: what follows.
    const std::size_t n = std::min<std::size_t>(size - 1, data[0] % 48);
    const std::string_view needle = s.substr(1, n), hay = s.substr(1 + n);
    if (pf::doctor::findInLine(hay, needle) != hay.find(needle)) __builtin_trap();
  }
  return 0;
}

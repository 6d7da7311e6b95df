// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/units.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "pf/error.hpp"

namespace pf {

uint64_t parseSize(std::string_view text, std::string_view what) {
  auto fail = [&](std::string_view why) -> uint64_t {
    throw UsageError(
        fmt::format("invalid size '{}' for {}: {} (use a number of bytes with an optional K, M or G "
                    "suffix, e.g. 8, 64K, 16M, 1G)",
                    text, what, why));
  };
  if (text.empty()) return fail("empty");
  uint64_t mult = 1;
  std::string_view digits = text;
  switch (std::toupper(static_cast<unsigned char>(text.back()))) {
    case 'K': mult = 1ull << 10; break;
    case 'M': mult = 1ull << 20; break;
    case 'G': mult = 1ull << 30; break;
    case 'B': break;  // "8B" is accepted as plain bytes
    default: mult = 0; break;
  }
  if (mult != 0 || std::toupper(static_cast<unsigned char>(text.back())) == 'B') {
    digits.remove_suffix(1);
    if (mult == 0) mult = 1;
  } else {
    mult = 1;
  }
  if (digits.empty()) return fail("no digits");
  if (digits.front() == '-') return fail("sizes cannot be negative");
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec == std::errc::result_out_of_range) return fail("too large");
  if (ec != std::errc() || end != digits.data() + digits.size()) return fail("not a whole number");
  if (n > std::numeric_limits<uint64_t>::max() / mult) return fail("too large");
  return n * mult;
}

double gbPerSecond(double bytes, double seconds) { return seconds > 0 ? bytes / seconds / 1e9 : 0.0; }

std::string humanNumber(double v) {
  static const char* kSuffix[] = {"", " k", " M", " G", " T", " P"};
  // Whole numbers below 10000 keep their digits ("1024", not "1.02 k"); smaller ones three significant digits.
  if (!(std::abs(v) >= 9999.5)) return std::abs(v) >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.3g}", v);
  int k = 0;
  double a = v;
  while (std::abs(a) >= 999.5 && k < 5) a /= 1000, ++k;
  return fmt::format("{:.3g}{}", a, kSuffix[k]);
}

std::string fitNumber(double v, int width) {
  char buf[64];
  for (const char* f : {"%.2f", "%.1f", "%.0f"}) {
    int n = std::snprintf(buf, sizeof buf, f, v);
    if (n <= width) return buf;
  }
  int n = std::snprintf(buf, sizeof buf, "%.1e", v);
  if (n <= width) return buf;
  std::snprintf(buf, sizeof buf, "%.0e", v);
  return buf;
}

std::string humanBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return fmt::format("{} B", bytes);
  if (v == static_cast<double>(static_cast<uint64_t>(v)))
    return fmt::format("{} {}", static_cast<uint64_t>(v), kUnits[u]);
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

std::string counted(long long n, const std::string& one, const std::string& many) {
  return fmt::format("{} {}", n, n == 1 ? one : many.empty() ? one + "s" : many);
}

}  // namespace pf

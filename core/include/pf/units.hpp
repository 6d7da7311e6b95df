// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Units used everywhere in Preflight: sizes in bytes (input suffixes K/M/G are 1024-based, as nccl-tests
// reads them), bandwidth in GB/s (10^9 bytes per second), times in microseconds.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace pf {

/// A byte count; formats as "512 B", "16 KiB", "1.5 GiB".
struct Bytes {
  uint64_t value = 0;
};

/// A bandwidth in GB/s (10^9 bytes/s); formats as "12.34 GB/s".
struct GBps {
  double value = 0;
};

/// Parses "8", "512K", "16M", "2G" (case-insensitive suffix, 1024-based).
/// @param text the size as the user typed it
/// @param what the option's name, used in the error ("invalid size '1X' for --minbytes: ...")
/// @throws UsageError on an empty, negative, non-numeric or overflowing value.
uint64_t parseSize(std::string_view text, std::string_view what);

/// Bandwidth in GB/s for `bytes` moved in `seconds`; 0 when seconds is not positive.
double gbPerSecond(double bytes, double seconds);

/// Formats `v` to fit `width` characters as nccl-tests' getFloatStr does: %.2f, then %.1f, %.0f, %.1e, %.0e.
std::string fitNumber(double v, int width);

/// A figure for a person to read: three significant digits, with k, M, G, T (10^3 steps) above 9999
/// ("850", "12.3", "9.06 M"): never "9064324.8".
std::string humanNumber(double v);

/// Human-readable size with binary suffix ("16 MiB").
std::string humanBytes(uint64_t bytes);

/// A count with its noun in the right number: counted(1, "node") is "1 node", counted(2, "node") "2 nodes".
/// @param many the plural when it is not `one` + "s" ("matches")
std::string counted(long long n, const std::string& one, const std::string& many = "");

}  // namespace pf

template <>
struct fmt::formatter<pf::Bytes> : fmt::formatter<std::string> {
  auto format(pf::Bytes b, format_context& ctx) const {
    return fmt::formatter<std::string>::format(pf::humanBytes(b.value), ctx);
  }
};

template <>
struct fmt::formatter<pf::GBps> : fmt::formatter<std::string> {
  auto format(pf::GBps b, format_context& ctx) const {
    return fmt::formatter<std::string>::format(fmt::format("{:.2f} GB/s", b.value), ctx);
  }
};

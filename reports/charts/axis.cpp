// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include <fmt/format.h>

#include <cmath>

#include "chart_model.hpp"

namespace pf::reports::charts {

std::vector<double> log2Ticks(double lo, double hi, int maxTicks) {
  std::vector<double> ticks;
  if (!(lo > 0) || !(hi >= lo) || !std::isfinite(hi) || maxTicks < 1) return ticks;
  const int first = static_cast<int>(std::floor(std::log2(lo)));
  const int last = static_cast<int>(std::ceil(std::log2(hi)));
  // Every k-th power of two, so a sweep from 8 B to 8 GiB (31 powers) still gets a readable axis.
  const int step = std::max(1, (last - first + maxTicks) / maxTicks);
  for (int e = first; e <= last; e += step) ticks.push_back(std::ldexp(1.0, e));
  return ticks;
}

const char* seriesColor(size_t i) {
  static const char* const kColors[] = {"#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#393b79"};
  return kColors[i % (sizeof(kColors) / sizeof(kColors[0]))];
}

std::string binarySize(double bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (bytes >= 1024 && u < 5) {
    bytes /= 1024;
    ++u;
  }
  // Whole numbers print bare (1 KiB); a size between two units keeps what makes it exact enough (1.5 MiB).
  return bytes == std::floor(bytes) ? fmt::format("{:.0f} {}", bytes, kUnits[u])
                                    : fmt::format("{:.3g} {}", bytes, kUnits[u]);
}

}  // namespace pf::reports::charts

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "axis_ticks.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pf::gui {
namespace {

struct Prefix {
  double factor;
  const char* unit;
};

// The ladder of a unit: the first entry is used below all others. Bandwidths are decimal (GB/s = 1e9 B/s).
std::vector<Prefix> ladder(const std::string& unit) {
  if (unit == "us") return {{1e-3, "ns"}, {1, "us"}, {1e3, "ms"}, {1e6, "s"}};
  if (unit == "GB/s") return {{1e-6, "kB/s"}, {1e-3, "MB/s"}, {1, "GB/s"}, {1e3, "TB/s"}};
  if (unit == "bytes") return {{1, "B"}, {1024, "KiB"}, {1024.0 * 1024, "MiB"}, {1024.0 * 1024 * 1024, "GiB"}};
  if (unit == "%") return {{1, "%"}};
  // Counts and rates whose unit stays in the axis title: only a k/M/G multiplier in the label.
  return {{1, ""}, {1e3, "k"}, {1e6, "M"}, {1e9, "G"}, {1e12, "T"}};
}

Prefix prefixFor(double ref, const std::string& unit, bool binary) {
  const auto steps = ladder(binary ? "bytes" : unit);
  Prefix p = steps.front();
  for (const Prefix& s : steps)
    if (std::abs(ref) >= s.factor * (1 - 1e-9)) p = s;
  return p;
}

QString withUnit(const QString& number, const char* unit) {
  const QString u = unit;
  if (number == "0" && (u == "k" || u == "M" || u == "G" || u == "T")) return number;  // "0", not "0M"
  if (u.isEmpty() || u == "%" || u == "k" || u == "M" || u == "G" || u == "T") return number + u;
  return number + " " + u;
}

int decimalsFor(double v, int sig) {
  if (v == 0) return 0;
  return std::max(0, sig - 1 - static_cast<int>(std::floor(std::log10(std::abs(v)))));
}

}  // namespace

QString plainNumber(double v, int decimals) {
  QString s = QString::number(v, 'f', std::clamp(decimals, 0, 12));
  if (s.contains('.')) {
    while (s.endsWith('0')) s.chop(1);
    if (s.endsWith('.')) s.chop(1);
  }
  return s == "-0" ? "0" : s;
}

QString formatValue(double v, const std::string& unit, bool binary, int sig) {
  const Prefix p = prefixFor(v, unit, binary);
  const double scaled = v / p.factor;
  return withUnit(plainNumber(scaled, decimalsFor(scaled, sig)), p.unit);
}

bool unitInTicks(const reports::charts::Axis& axis) {
  return axis.binarySuffix || axis.unit == "us" || axis.unit == "GB/s" || axis.unit == "bytes" || axis.unit == "%";
}

}  // namespace pf::gui

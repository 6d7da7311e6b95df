// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "axis_ticks.hpp"

#include <algorithm>
#include <cmath>

namespace pf::gui {
namespace {

using reports::charts::Scale;

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

double niceStep(double span, int target) {
  const double raw = span / target;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw * (1 - 1e-9)) return m * mag;
  return 10 * mag;
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

std::vector<Tick> axisTicks(const reports::charts::Axis& axis, double& lo, double& hi) {
  std::vector<Tick> out;
  auto add = [&](double at, const QString& label) {
    // A category axis needs distinct labels; a repeat (rounding) is left out.
    for (const Tick& t : out)
      if (t.label == label) return;
    out.push_back({at, label});
  };
  if (axis.scale == Scale::kLog2) {
    for (double t : reports::charts::log2Ticks(std::exp2(lo), std::exp2(hi), 10)) {
      const double at = std::log2(t);
      if (at < lo - 1e-9 || at > hi + 1e-9) continue;
      add(at, axis.binarySuffix ? QString::fromStdString(reports::charts::binarySize(t))
                                : formatValue(t, axis.unit, false, 6));
    }
    return out;
  }
  if (axis.scale == Scale::kLog10) {
    const int first = static_cast<int>(std::floor(lo)), last = static_cast<int>(std::ceil(hi));
    const int decades = last - first;
    // Few decades: 1-2-5 (or every digit) inside each; many: every decade, or every k-th one.
    std::vector<double> mantissas = {1};
    if (decades <= 2) mantissas = {1, 2, 5};
    int every = std::max(1, decades / 8);
    for (int pass = 0; pass < 2; ++pass) {
      out.clear();
      for (int d = first; d <= last; ++d) {
        if ((d - first) % every) continue;
        for (double m : mantissas) {
          const double v = m * std::pow(10.0, d), at = std::log10(v);
          if (at >= lo - 1e-9 && at <= hi + 1e-9) add(at, formatValue(v, axis.unit, axis.binarySuffix, 3));
        }
      }
      if (out.size() >= 3) break;
      mantissas = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    }
    return out;
  }
  if (!(hi > lo)) hi = lo + 1;
  const double step = niceStep(hi - lo, 6);
  lo = std::floor(lo / step + 1e-9) * step;
  hi = std::ceil(hi / step - 1e-9) * step;
  // One prefix for the whole axis, from its largest tick, so the labels read 0, 10 ms, 20 ms.
  const Prefix p = prefixFor(std::max(std::abs(lo), std::abs(hi)), axis.unit, axis.binarySuffix);
  const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step / p.factor) - 1e-9)));
  for (double v = lo; v <= hi + step * 1e-6; v += step) {
    const double tick = std::abs(v) < step * 1e-9 ? 0 : v;
    add(tick, withUnit(plainNumber(tick / p.factor, decimals), p.unit));
  }
  return out;
}

}  // namespace pf::gui

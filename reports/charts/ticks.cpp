// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Axes a reader takes in at a glance: the scale, the range and the labelled ticks of every axis are chosen here,
// once, so that the HTML/SVG reports and the viewer show the same axis. Rules, all from the points themselves:
// - a y axis whose positive values span more than 20x is drawn log10, since on a linear axis the smallest would
//   sit in its bottom twentieth, on zero to the eye: a capacity plan's measured throughput under predictions 60x
//   higher did (stacked bars and values at or below zero keep it linear);
// - 4 to 8 ticks: linear steps of 1, 2, 2.5 or 5 x 10^k, log10 ticks at decades (1-2-5 or 1-2-3-5 where the
//   range is short), log2 ticks at powers of two (every k-th where there are many);
// - labels SI-scaled by unit (1 KiB, 30 ms, 500 MB/s, 1.5M), never in e-notation, never "-0".
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "chart_model.hpp"

namespace pf::reports::charts {
namespace {

// One unit prefix for a label: the value is divided by `div` and `suffix` follows the number.
struct Prefix {
  double div = 1;
  std::string suffix;
};

Prefix prefixFor(double magnitude, const Axis& a) {
  magnitude = std::fabs(magnitude);
  if (a.binarySuffix || a.unit == "bytes") {
    static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    double div = 1;
    while (magnitude >= 1024 * div && u < 5) {
      div *= 1024;
      ++u;
    }
    return {div, std::string(" ") + kUnits[u]};
  }
  if (a.unit == "us") {
    if (magnitude >= 1e6) return {1e6, " s"};
    if (magnitude >= 1e3) return {1e3, " ms"};
    return {1, " us"};
  }
  if (a.unit == "GB/s") {  // decimal, as nccl-tests' GB/s: 1 GB/s = 1000 MB/s = 1e9 B/s
    if (magnitude >= 1e3) return {1e3, " TB/s"};
    if (magnitude >= 1) return {1, " GB/s"};
    if (magnitude >= 1e-3) return {1e-3, " MB/s"};
    if (magnitude >= 1e-6) return {1e-6, " kB/s"};
    return {1e-9, " B/s"};
  }
  // Other units sit in the axis title; large numbers get k, M, G so that a label stays short.
  if (magnitude >= 1e9) return {1e9, "G"};
  if (magnitude >= 1e6) return {1e6, "M"};
  if (magnitude >= 1e4) return {1e3, "k"};
  return {1, ""};
}

// Fixed notation with `decimals`, trailing zeros dropped; "0" where it rounds to zero of either sign.
std::string fixedNumber(double v, int decimals) {
  std::string s = fmt::format("{:.{}f}", v, std::max(0, decimals));
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

// The fewest decimals that show every multiple of `step` exactly (0.25 -> 2, 5 -> 0).
int decimalsOf(double step) {
  for (int d = 0; d < 9; ++d) {
    const double scaled = step * std::pow(10, d);
    if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) return d;
  }
  return 9;
}

std::vector<double> logCandidates(double lo, double hi, const std::vector<double>& mantissas) {
  std::vector<double> v;
  for (int e = static_cast<int>(std::floor(std::log10(lo))) - 1; e <= static_cast<int>(std::ceil(std::log10(hi))) + 1;
       ++e)
    for (double m : mantissas) v.push_back(m * std::pow(10, e));
  return v;
}

// Log10 ticks: whole decades where the range holds at least three, else 1-2-5, 1-2-3-5 or 1..9 per decade, the
// first set that gives 4 ticks. The range grows to the ticks on either side of the data.
void fitLog10(Axis& a, double lo, double hi) {
  const std::vector<std::vector<double>> sets = {{1}, {1, 2, 5}, {1, 2, 3, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  std::vector<double> best;
  for (const auto& set : sets) {
    const std::vector<double> c = logCandidates(lo, hi, set);
    auto first = std::upper_bound(c.begin(), c.end(), lo * (1 + 1e-9));
    auto last = std::lower_bound(c.begin(), c.end(), hi * (1 - 1e-9));
    std::vector<double> t(first == c.begin() ? first : first - 1, last == c.end() ? last : last + 1);
    if (set.size() == 1 && t.size() > 8) {  // many decades: every k-th, the last one above the data
      const size_t k = (t.size() + 6) / 7;
      std::vector<double> thin;
      for (size_t i = 0; i < t.size(); i += k) thin.push_back(t[i]);
      if (thin.back() < hi * (1 - 1e-9)) thin.push_back(thin.back() * std::pow(10, k));
      t = thin;
    }
    best = t;
    if (t.size() >= 4) break;
  }
  a.lo = best.front();
  a.hi = best.back();
  for (double v : best) a.ticks.push_back({v, tickLabel(v, a)});
}

// Powers of two, every k-th so that there are at most 8; ranges under 3 octaves grow to 3 (sizes and world
// sizes do not go below 1 when the data do not).
void fitLog2(Axis& a, double lo, double hi, double pad) {
  int e0 = static_cast<int>(std::floor(std::log2(lo) + 1e-9)), e1 = static_cast<int>(std::ceil(std::log2(hi) - 1e-9));
  if (e1 - e0 < 3) {
    e0 -= (3 - (e1 - e0)) / 2;
    if (lo >= 1) e0 = std::max(e0, 0);
    e1 = e0 + 3;
  }
  const int k = std::max(1, (e1 - e0 + 6) / 7);
  const int start = static_cast<int>(std::floor(static_cast<double>(e0) / k)) * k;
  const int end = static_cast<int>(std::ceil(static_cast<double>(e1) / k)) * k;
  const int from = lo >= 1 ? std::max(start, 0) : start;
  for (int e = from; e <= end; e += k) a.ticks.push_back({std::ldexp(1.0, e), tickLabel(std::ldexp(1.0, e), a)});
  a.lo = std::min(a.ticks.front().value, lo / pad);
  a.hi = std::max(a.ticks.back().value, hi * pad);
}

// Steps of 1, 2, 2.5 or 5 x 10^k: the smallest that needs at most 8 ticks; the range grows to whole steps.
void fitLinear(Axis& a, double lo, double hi) {
  if (hi <= lo) {
    const double d = lo == 0 ? 1 : std::fabs(lo) / 2;
    lo -= d;
    hi += d;
  }
  double step = 0;
  int first = 0, last = 0;
  for (int e = static_cast<int>(std::floor(std::log10((hi - lo) / 10))); step == 0; ++e)
    for (double m : {1.0, 2.0, 2.5, 5.0}) {
      const double s = m * std::pow(10, e);
      first = static_cast<int>(std::floor(lo / s + 1e-9));
      last = static_cast<int>(std::ceil(hi / s - 1e-9));
      if (last - first + 1 <= 8) {
        step = s;
        break;
      }
    }
  // Values at or below zero that end at zero (a change chart where nothing improved) would sit on the plot's
  // top frame, their markers cut in half: one step more above.
  if (hi == 0 && lo < 0) ++last;
  a.lo = first * step;
  a.hi = last * step;
  const double magnitude = std::max(std::fabs(a.lo), std::fabs(a.hi));
  const Prefix p = prefixFor(magnitude, a);
  const int decimals = decimalsOf(step / p.div);
  for (int i = first; i <= last; ++i) {
    const double v = i * step;
    a.ticks.push_back({v, i == 0 ? "0" : fixedNumber(v / p.div, decimals) + p.suffix});
  }
}

// Past this ratio of the largest to the smallest value a y axis is log10 (the rules above).
constexpr double kLogSpan = 20;

struct Extent {
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  double positiveLo = std::numeric_limits<double>::max();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    if (v > 0) positiveLo = std::min(positiveLo, v);
  }
  bool empty() const { return lo > hi; }
};

void fitOne(Axis& a, const Extent& e, bool mayLog, bool fromZero, double pad) {
  a.ticks.clear();
  a.lo = a.hi = 0;
  if (e.empty()) return;
  if (a.scale == Scale::kLinear && mayLog && e.lo > 0 && e.hi / e.lo > kLogSpan) a.scale = Scale::kLog10;
  if (a.scale != Scale::kLinear) {
    if (!(e.hi > 0)) {  // nothing a log axis can place: draw it linear rather than empty
      a.scale = Scale::kLinear;
    } else {
      const double lo = std::min(e.positiveLo, e.hi);
      if (a.scale == Scale::kLog2)
        fitLog2(a, lo, e.hi, pad);
      else
        fitLog10(a, lo, e.hi);
      return;
    }
  }
  fitLinear(a, fromZero ? std::min(0.0, e.lo) : e.lo, fromZero ? std::max(0.0, e.hi) : e.hi);
}

}  // namespace

std::string plainNumber(double value, int significant) {
  if (!std::isfinite(value)) return "n/a";
  if (std::fabs(value) < 1e-12) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  return fixedNumber(value, significant - 1 - magnitude);
}

std::string tickLabel(double value, const Axis& axis, double magnitude) {
  if (std::fabs(value) < 1e-12) return "0";
  const Prefix p = prefixFor(magnitude > 0 ? magnitude : value, axis);
  return plainNumber(value / p.div) + p.suffix;
}

std::string axisTitle(const Axis& axis) {
  // Sizes, times and bandwidths carry their unit in every tick label (1 KiB, 30 ms, 5 GB/s); other units are
  // named once, here.
  if (axis.unit.empty() || axis.unit == "bytes" || axis.unit == "us" || axis.unit == "GB/s" || axis.binarySuffix)
    return axis.title;
  return axis.title + " (" + axis.unit + ")";
}

std::string legendName(const Series& series) {
  if (!series.predicted || series.name.find("predicted") != std::string::npos) return series.name;
  return series.name + " (predicted)";
}

void fitAxes(Chart& c) {
  Extent x, y;
  bool stacked = false;
  std::vector<std::pair<double, double>> stackTops;  // (x, running height): the axis holds the whole stack
  for (const Series& s : c.series) {
    stacked = stacked || s.style == Style::kStacked;
    for (const Point& p : s.points) {
      x.add(p.x);
      double v = p.y;
      if (s.style == Style::kStacked) {
        auto it = std::find_if(stackTops.begin(), stackTops.end(), [&](const auto& t) { return t.first == p.x; });
        if (it == stackTops.end()) it = stackTops.insert(stackTops.end(), {p.x, 0.0});
        v = it->second += p.y;
      }
      y.add(v);
      if (p.low) y.add(*p.low);
      if (p.high) y.add(*p.high);
    }
  }
  // Bars are drawn around their x and markers are round: leave room so that neither is cut at the plot's edge.
  fitOne(c.x, x, false, false, stacked ? std::sqrt(2.0) : std::pow(2.0, 0.15));
  fitOne(c.y, y, !stacked, true, 1);
}

}  // namespace pf::reports::charts

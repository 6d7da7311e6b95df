// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "chart_series.hpp"

#include <QPen>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <algorithm>
#include <cmath>
#include <limits>

#include "axis_ticks.hpp"

namespace pf::gui {
namespace {

using reports::charts::Scale;
using reports::charts::Style;

// Half the width of a stacked bar and of an error bar, as fractions of the plotted x range.
constexpr double kBarHalf = 0.025, kErrorHalf = 0.003;

// Thin rectangles as one area: the upper outline drops to each bar's base between bars, so the gaps enclose
// no area and nothing is filled there. One series instead of one per bar keeps the legend and hover simple.
QAreaSeries* bars(const std::vector<QRectF>& rects, QColor color) {
  auto* upper = new QLineSeries();
  auto* lower = new QLineSeries();
  for (const QRectF& r : rects) {
    upper->append({QPointF(r.left(), r.top()), QPointF(r.left(), r.bottom()), QPointF(r.right(), r.bottom()),
                   QPointF(r.right(), r.top())});
    lower->append({QPointF(r.left(), r.top()), QPointF(r.right(), r.top())});
  }
  auto* area = new QAreaSeries(upper, lower);
  upper->setParent(area);
  lower->setParent(area);
  area->setPen(Qt::NoPen);
  area->setBrush(color);
  return area;
}

bool hasStacks(const reports::charts::Chart& c) {
  return std::any_of(c.series.begin(), c.series.end(), [](const auto& s) { return s.style == Style::kStacked; });
}

// Where the bars of run `slot` of `slotCount` stand around their x: side by side, centred on it.
double barOffset(int slot, int slotCount, double half) { return (slot - (slotCount - 1) / 2.0) * 2.2 * half; }

double barHalf(const ViewChart& c, double xspan) {
  const int slotCount = runsIn(c);
  return xspan * kBarHalf * std::min(1.0, 3.0 / slotCount);
}

}  // namespace

int runsIn(const ViewChart& c) {
  std::vector<int> runs = c.run;
  std::sort(runs.begin(), runs.end());
  return std::max(1, static_cast<int>(std::unique(runs.begin(), runs.end()) - runs.begin()));
}

double AxisMap::to(double v) const {
  return scale == Scale::kLog2 ? std::log2(v) : scale == Scale::kLog10 ? std::log10(v) : v;
}
double AxisMap::from(double p) const {
  return scale == Scale::kLog2 ? std::exp2(p) : scale == Scale::kLog10 ? std::pow(10.0, p) : p;
}

reports::charts::Chart displayChart(reports::charts::Chart c) {
  auto widen = [&](reports::charts::Axis& axis, bool isX) {
    if (axis.scale != Scale::kLinear || (!isX && hasStacks(c))) return;
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (const auto& s : c.series)
      for (const auto& p : s.points)
        for (std::optional<double> v :
             {std::optional<double>(isX ? p.x : p.y), isX ? std::nullopt : p.low, isX ? std::nullopt : p.high}) {
          if (!v) continue;
          if (*v <= 0) return;  // zero or below has no place on a log axis
          lo = std::min(lo, *v), hi = std::max(hi, *v);
        }
    if (hi > 0 && hi / lo > 100) axis.scale = Scale::kLog10;
  };
  widen(c.x, true);
  widen(c.y, false);
  return c;
}

PlotRange xRange(const ViewChart& vc) {
  const auto& c = vc.chart;
  const AxisMap m{c.x.scale};
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  for (const auto& s : c.series)
    for (const auto& p : s.points)
      if (m.usable(p.x)) lo = std::min(lo, m.to(p.x)), hi = std::max(hi, m.to(p.x));
  if (lo > hi) return {};
  const double span = hi > lo ? hi - lo : 1;
  // Bars are drawn around their x, side by side per run: room for the outer ones.
  const double pad = hasStacks(c) ? span * (0.04 + 2.2 * kBarHalf * runsIn(vc) / 2) : span * 0.02;
  return {lo - pad, hi + pad};
}

PlotRange yRange(const ViewChart& vc) {
  const auto& c = vc.chart;
  const AxisMap m{c.y.scale};
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  std::map<std::pair<int, double>, double> stack;  // the axis must hold every run's whole stack
  auto add = [&](double v) {
    if (m.usable(v)) lo = std::min(lo, m.to(v)), hi = std::max(hi, m.to(v));
  };
  for (size_t i = 0; i < c.series.size(); ++i) {
    const auto& s = c.series[i];
    for (const auto& p : s.points) {
      add(s.style == Style::kStacked ? (stack[{vc.run[i], p.x}] += p.y) : p.y);
      if (p.low) add(*p.low);
      if (p.high) add(*p.high);
    }
  }
  if (lo > hi) return {};
  const double span = hi > lo ? hi - lo : std::max(1.0, std::abs(hi));
  if (c.y.scale != Scale::kLinear) return {lo - span * 0.05, hi + span * 0.05};
  lo = std::min(0.0, lo);  // bandwidths, times and efficiencies start at zero
  return {lo == 0 ? 0 : lo - span * 0.05, hi + span * 0.05};
}

QAbstractAxis* makeAxis(const reports::charts::Axis& axis, PlotRange r) {
  const bool unitShown = unitInTicks(axis) || axis.unit.empty();
  const QString title = QString::fromStdString(unitShown ? axis.title : axis.title + " (" + axis.unit + ")");
  auto* cat = new QCategoryAxis();
  cat->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  double lo = r.lo, hi = r.hi;
  const std::vector<Tick> ticks = axisTicks(axis, lo, hi);
  cat->setRange(lo, hi);
  cat->setStartValue(lo);
  for (const Tick& t : ticks) cat->append(t.label, t.at);
  cat->setTitleText(title);
  cat->setProperty("pfScale", axis.scale == Scale::kLog2 ? "log2" : axis.scale == Scale::kLog10 ? "log10" : "linear");
  return cat;
}

DrawnParts makeSeries(const reports::charts::Series& s, const ViewChart& vc, const SeriesLook& look,
                      StackTops& stackTop) {
  const auto& c = vc.chart;
  const AxisMap mx{c.x.scale}, my{c.y.scale};
  const PlotRange xr = xRange(vc);
  const double xspan = xr.hi - xr.lo;
  QColor color = look.color;
  DrawnParts parts;
  if (s.style == Style::kBand || s.style == Style::kStacked) {
    std::vector<QRectF> rects;
    auto* upper = new QLineSeries();
    auto* lower = new QLineSeries();
    const double half = barHalf(vc, xspan);
    for (const auto& p : s.points) {
      if (!mx.usable(p.x)) continue;
      if (s.style == Style::kBand && p.low && p.high && my.usable(*p.low)) {
        upper->append(mx.to(p.x), my.to(*p.high));
        lower->append(mx.to(p.x), my.to(*p.low));
      } else if (s.style == Style::kStacked) {
        double& top = stackTop[{look.slot, p.x}];
        const double x = mx.to(p.x) + barOffset(look.slot, look.slotCount, half);
        rects.emplace_back(QPointF(x - half, top), QPointF(x + half, top + p.y));
        top += p.y;
      }
    }
    if (s.style == Style::kStacked) {
      delete upper;
      delete lower;
      parts.main = bars(rects, color);
    } else {
      auto* area = new QAreaSeries(upper, lower);
      upper->setParent(area);
      lower->setParent(area);
      color.setAlpha(70);  // a percentile band sits behind the line it belongs to
      area->setPen(Qt::NoPen);
      area->setBrush(color);
      parts.main = area;
    }
    return parts;
  }
  QXYSeries* xy = nullptr;
  if (s.style == Style::kMarkers) {
    auto* scatter = new QScatterSeries();
    scatter->setMarkerSize(s.predicted ? 9 : 8);
    // Predicted markers are hollow squares: told apart from measurements without relying on colour.
    if (s.predicted) scatter->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    scatter->setBrush(s.predicted ? QBrush(Qt::transparent) : QBrush(color));
    scatter->setPen(QPen(color, s.predicted ? 2 : 1));
    xy = scatter;
  } else {
    auto* line = new QLineSeries();
    const bool dashed = s.predicted || s.style == Style::kIdeal;
    line->setPen(QPen(color, s.style == Style::kIdeal ? 1.5 : 2, dashed ? Qt::DashLine : look.pen));
    line->setPointsVisible(s.predicted || s.points.size() <= 64);  // predictions are marked as well as dashed
    xy = line;
  }
  QList<QPointF> pts;
  std::vector<QRectF> errors;
  pts.reserve(static_cast<qsizetype>(s.points.size()));
  for (const auto& p : s.points) {
    if (!mx.usable(p.x) || !my.usable(p.y)) continue;
    pts.append({mx.to(p.x), my.to(p.y)});
    if (p.low && p.high && my.usable(*p.low))
      errors.emplace_back(QPointF(mx.to(p.x) - xspan * kErrorHalf, my.to(*p.low)),
                          QPointF(mx.to(p.x) + xspan * kErrorHalf, my.to(*p.high)));
  }
  xy->replace(pts);
  parts.main = xy;
  if (!errors.empty()) parts.helpers.push_back(bars(errors, color));
  return parts;
}

}  // namespace pf::gui

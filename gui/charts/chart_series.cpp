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

PlotRange plotRange(const reports::charts::Axis& axis) {
  if (!axis.fitted()) return {};
  const AxisMap m{axis.scale};
  return {m.to(axis.lo), m.to(axis.hi)};
}

QAbstractAxis* makeAxis(const reports::charts::Axis& axis) {
  auto* cat = new QCategoryAxis();
  cat->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  const PlotRange r = plotRange(axis);
  cat->setRange(r.lo, r.hi);
  cat->setStartValue(r.lo);
  const AxisMap m{axis.scale};
  for (const reports::charts::Tick& t : axis.ticks) cat->append(QString::fromStdString(t.label), m.to(t.value));
  cat->setTitleText(QString::fromStdString(reports::charts::axisTitle(axis)));
  cat->setProperty("pfScale", axis.scale == Scale::kLog2 ? "log2" : axis.scale == Scale::kLog10 ? "log10" : "linear");
  return cat;
}

DrawnParts makeSeries(const reports::charts::Series& s, const ViewChart& vc, const SeriesLook& look,
                      StackTops& stackTop) {
  const auto& c = vc.chart;
  const AxisMap mx{c.x.scale}, my{c.y.scale};
  const PlotRange xr = plotRange(c.x);
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
  if (s.regression) {
    // The points a gate flagged: large red markers, never joined, whatever the file's colour (as in the HTML).
    auto* scatter = new QScatterSeries();
    scatter->setMarkerSize(12);
    scatter->setBrush(QColor(reports::charts::kAlarmColor));
    scatter->setPen(QPen(Qt::white, 1.5));
    xy = scatter;
  } else if (s.style == Style::kMarkers) {
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

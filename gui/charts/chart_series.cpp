// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "chart_series.hpp"

#include <QPen>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace pf::gui {
namespace {

using reports::charts::Scale;
using reports::charts::Style;

// Half the width of a stacked bar and of an error bar, as fractions of the plotted x range.
constexpr double kBarHalf = 0.025, kErrorHalf = 0.003;

double& stackAt(std::vector<std::pair<double, double>>& stack, double x) {
  for (auto& [sx, top] : stack)
    if (sx == x) return top;
  return stack.emplace_back(x, 0.0).second;
}

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

}  // namespace

double AxisMap::to(double v) const { return scale == Scale::kLog2 ? std::log2(v) : v; }
double AxisMap::from(double p) const { return scale == Scale::kLog2 ? std::exp2(p) : p; }

PlotRange xRange(const reports::charts::Chart& c) {
  const AxisMap m{c.x.scale};
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  bool stacked = false;
  for (const auto& s : c.series) {
    stacked = stacked || s.style == Style::kStacked;
    for (const auto& p : s.points)
      if (m.usable(p.x)) lo = std::min(lo, m.to(p.x)), hi = std::max(hi, m.to(p.x));
  }
  if (lo > hi) return {};
  if (c.x.scale == Scale::kLog10) return {lo / 1.5, hi * 1.5};
  const double span = hi > lo ? hi - lo : 1;
  const double pad = stacked ? span * 0.08 : span * 0.02;  // bars are drawn around their x
  return {lo - pad, hi + pad};
}

PlotRange yRange(const reports::charts::Chart& c) {
  const AxisMap m{c.y.scale};
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  std::map<double, double> stack;  // the axis must hold every whole stack of bars
  auto add = [&](double v) {
    if (m.usable(v)) lo = std::min(lo, m.to(v)), hi = std::max(hi, m.to(v));
  };
  for (const auto& s : c.series)
    for (const auto& p : s.points) {
      add(s.style == Style::kStacked ? (stack[p.x] += p.y) : p.y);
      if (p.low) add(*p.low);
      if (p.high) add(*p.high);
    }
  if (lo > hi) return {};
  if (c.y.scale == Scale::kLog10) return {lo / 1.5, hi * 1.5};
  if (c.y.scale == Scale::kLinear) lo = std::min(0.0, lo);  // bandwidths and efficiencies start at zero
  const double span = hi > lo ? hi - lo : std::max(1.0, std::abs(hi));
  return {c.y.scale == Scale::kLinear && lo == 0 ? 0 : lo - span * 0.05, hi + span * 0.05};
}

QAbstractAxis* makeAxis(const reports::charts::Axis& axis, PlotRange r) {
  const QString title = QString::fromStdString(axis.unit.empty() ? axis.title : axis.title + " (" + axis.unit + ")");
  QAbstractAxis* out = nullptr;
  if (axis.scale == Scale::kLog2) {
    auto* cat = new QCategoryAxis();
    cat->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    cat->setRange(r.lo, r.hi);
    for (double t : reports::charts::log2Ticks(std::exp2(r.lo), std::exp2(r.hi), 10)) {
      const double at = std::log2(t);
      if (at < r.lo || at > r.hi) continue;
      cat->append(QString::fromStdString(axis.binarySuffix ? reports::charts::binarySize(t)
                                                           : QString::number(t, 'g', 6).toStdString()),
                  at);
    }
    out = cat;
  } else if (axis.scale == Scale::kLog10) {
    auto* log = new QLogValueAxis();
    log->setBase(10);
    log->setLabelFormat("%g");
    log->setRange(r.lo, r.hi);
    out = log;
  } else {
    auto* value = new QValueAxis();
    value->setRange(r.lo, r.hi);
    value->setLabelFormat("%.4g");
    value->applyNiceNumbers();
    out = value;
  }
  out->setTitleText(title);
  return out;
}

QString seriesName(const reports::charts::Series& s) {
  return QString::fromStdString(s.predicted ? s.name + " (predicted)" : s.name);
}

DrawnParts makeSeries(const reports::charts::Series& s, const reports::charts::Chart& c, QColor color,
                      std::vector<std::pair<double, double>>& stackTop) {
  const AxisMap mx{c.x.scale}, my{c.y.scale};
  const PlotRange xr = xRange(c);
  const double xspan = xr.hi - xr.lo;
  DrawnParts parts;
  if (s.style == Style::kBand || s.style == Style::kStacked) {
    std::vector<QRectF> rects;
    auto* upper = new QLineSeries();
    auto* lower = new QLineSeries();
    for (const auto& p : s.points) {
      if (!mx.usable(p.x)) continue;
      if (s.style == Style::kBand && p.low && p.high && my.usable(*p.low)) {
        upper->append(mx.to(p.x), my.to(*p.high));
        lower->append(mx.to(p.x), my.to(*p.low));
      } else if (s.style == Style::kStacked) {
        double& top = stackAt(stackTop, p.x);
        const double x = mx.to(p.x), half = xspan * kBarHalf;
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
    parts.main->setName(seriesName(s));
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
    line->setPen(QPen(color, s.style == Style::kIdeal ? 1.5 : 2, dashed ? Qt::DashLine : Qt::SolidLine));
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
  xy->setName(seriesName(s));
  parts.main = xy;
  if (!errors.empty()) parts.helpers.push_back(bars(errors, color));
  return parts;
}

}  // namespace pf::gui

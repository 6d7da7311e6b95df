// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// From the chart model to Qt Charts objects: axes and one Qt series per model series (plus helper series
// for error bars). Internal to gui/charts/. A log2 axis is drawn as a category axis over log2(x), because
// QLogValueAxis can only print numbers and sizes must read "1 KiB", "2 MiB" as in the HTML report; the
// points are plotted at log2(x) and the labels sit on the powers of two that charts::log2Ticks chooses.
#pragma once

#include <QColor>
#include <QString>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QAbstractSeries>
#include <vector>

#include "charts/chart_model.hpp"

namespace pf::gui {

/// Where a model value lands on a Qt axis: log2 axes plot log2(v), the others plot v itself.
struct AxisMap {
  reports::charts::Scale scale = reports::charts::Scale::kLinear;
  bool usable(double v) const { return scale == reports::charts::Scale::kLinear || v > 0; }
  double to(double v) const;
  double from(double plotted) const;
};

/// The plotted range of one axis, as the SVG report computes it (stacks summed, bars padded, linear y from 0).
struct PlotRange {
  double lo = 0, hi = 1;
};
PlotRange xRange(const reports::charts::Chart& c);
PlotRange yRange(const reports::charts::Chart& c);

/// An axis for `axis` over the plotted range `r`.
QAbstractAxis* makeAxis(const reports::charts::Axis& axis, PlotRange r);

/// A model series as Qt objects: `main` carries the name and the legend marker; `helpers` (error bars) follow
/// its visibility and have no legend entry. `stackTop` is where the next stacked bar starts at each x.
struct DrawnParts {
  QAbstractSeries* main = nullptr;
  std::vector<QAbstractSeries*> helpers;
};
DrawnParts makeSeries(const reports::charts::Series& s, const reports::charts::Chart& c, QColor color,
                      std::vector<std::pair<double, double>>& stackTop);

/// A series' legend name: predicted ones say so, as in the HTML report.
QString seriesName(const reports::charts::Series& s);

}  // namespace pf::gui

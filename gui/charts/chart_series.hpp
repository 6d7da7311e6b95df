// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// From the chart model to Qt Charts objects: axes and one Qt series per model series (plus helper series for
// error bars). Internal to gui/charts/. Every axis is a category axis over plotted values (log2(x) or log10(y)
// on log axes): Qt's value axes print numbers through printf formats ("1e+06") and cannot scale units, while
// ticks must read "1 KiB", "10 ms", "25 GB/s" as in the HTML report; axis_ticks.cpp chooses them.
#pragma once

#include <QColor>
#include <QString>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QAbstractSeries>
#include <map>
#include <vector>

#include "charts/chart_model.hpp"
#include "charts/chart_view.hpp"

namespace pf::gui {

/// Where a model value lands on a Qt axis: log axes plot log2(v) or log10(v), the linear one plots v itself.
struct AxisMap {
  reports::charts::Scale scale = reports::charts::Scale::kLinear;
  bool usable(double v) const { return scale == reports::charts::Scale::kLinear || v > 0; }
  double to(double v) const;
  double from(double plotted) const;
};

/// The plotted range of one axis (stacks summed per run, bars padded, linear y from 0), in plotted units.
struct PlotRange {
  double lo = 0, hi = 1;
};
PlotRange xRange(const ViewChart& c);
/// How many files have series in the chart (at least 1).
int runsIn(const ViewChart& c);
PlotRange yRange(const ViewChart& c);

/// The chart as the viewer draws it: a linear axis whose positive values span more than two decades becomes a
/// log10 axis (stacked bars excepted: a bar starts at zero).
reports::charts::Chart displayChart(reports::charts::Chart c);

/// An axis for `axis` over the plotted range `r`.
QAbstractAxis* makeAxis(const reports::charts::Axis& axis, PlotRange r);

/// How one series is drawn: its colour and line style, and for stacked bars the slot of its run (the bars of
/// each run stand side by side at one x, never stacked on another run's).
struct SeriesLook {
  QColor color;
  Qt::PenStyle pen = Qt::SolidLine;
  int slot = 0, slotCount = 1;
};

/// A model series as Qt objects: `main` carries the name; `helpers` (error bars) follow its visibility.
/// `stackTop` is where the next stacked bar starts, per (slot, x).
struct DrawnParts {
  QAbstractSeries* main = nullptr;
  std::vector<QAbstractSeries*> helpers;
};
using StackTops = std::map<std::pair<int, double>, double>;
DrawnParts makeSeries(const reports::charts::Series& s, const ViewChart& c, const SeriesLook& look,
                      StackTops& stackTop);

}  // namespace pf::gui

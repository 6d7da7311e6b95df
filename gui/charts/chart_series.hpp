// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// From the chart model to Qt Charts objects: axes and one Qt series per model series (plus helper series for
// error bars). Internal to gui/charts/. The axes are the model's fitted ones (reports::charts::fitAxes: scale,
// range, ticks and their labels), as the HTML report draws them; each is a category axis over plotted values
// (log2(x) or log10(y) on log axes), since Qt's value axes print numbers through printf formats ("1e+06").
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

/// The plotted range of one axis: the model's fitted range, in plotted units.
struct PlotRange {
  double lo = 0, hi = 1;
};
PlotRange plotRange(const reports::charts::Axis& axis);
/// How many files have series in the chart (at least 1).
int runsIn(const ViewChart& c);

/// The model's axis as a Qt axis: its ticks at their plotted positions, its title as the HTML report words it.
QAbstractAxis* makeAxis(const reports::charts::Axis& axis);

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

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One chart of the chart model on screen: hover shows a point's exact values, a rubber band zooms (right
// click or Home zooms out), a middle-button drag or the arrow keys pan, a legend click hides or shows a series,
// and the context menu exports PNG or SVG. The header keeps Qt Charts out of its includers: describe() reads
// what was drawn back as plain data, which the tests check and which survives a port to Qt Graphs.
#pragma once

#include <QImage>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "charts/chart_model.hpp"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace pf::gui {

struct DrawnSeries {
  QString name;
  QString kind;  ///< "line", "scatter", "area"
  int points = 0;
  bool dashed = false, visible = true, inLegend = true;
  std::vector<QPointF> values;  ///< as plotted: x is log2(x) on a log2 axis
};

struct DrawnAxis {
  QString kind;  ///< "log2" (category axis over log2 values), "log10", "linear"
  double min = 0, max = 0;
  QStringList labels;  ///< the log2 axis' tick labels ("1 KiB", "2 MiB")
  QString title;
};

struct DrawnChart {
  QString id, title;
  DrawnAxis x, y;
  std::vector<DrawnSeries> series;
};

class ChartView : public QWidget {
  Q_OBJECT

 public:
  ChartView(const reports::charts::Chart& chart, bool dark, QWidget* parent = nullptr);

  const std::string& id() const { return model_.id; }
  DrawnChart describe() const;
  /// The plot area (inside the axes) in this widget's coordinates.
  QRect plotArea() const;
  /// What hovering the point of series `name` nearest to `x` (model units) shows; empty when there is none.
  QString hoverText(const QString& name, double x) const;
  /// As a click on the series' legend marker does.
  void toggleSeries(const QString& name);

  QImage image(QSize size);
  bool savePng(const QString& path, QSize size);
  bool saveSvg(const QString& path, QSize size);

 private:
  void addSeries();
  void exportDialog(bool svg);

  reports::charts::Chart model_;
  QChart* chart_ = nullptr;
  QChartView* view_ = nullptr;
};

/// True when the palette's window colour is dark: the charts then use Qt Charts' dark theme.
bool isDark(const QPalette& palette);

/// Writes `widget` rendered at `size` as an SVG file; false when it cannot be written or Qt Svg is missing.
bool saveWidgetSvg(QWidget* widget, const QString& path, QSize size, const QString& title);

}  // namespace pf::gui

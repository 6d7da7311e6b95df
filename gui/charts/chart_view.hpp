// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One chart of the chart model on screen: hover shows a point's exact values, a rubber band zooms (right
// click or Home zooms out), a middle-button drag or the arrow keys pan, a legend click hides or shows a series,
// and the context menu exports PNG or SVG. The legend is a list below the plot (Qt Charts' own legend neither
// wraps nor scrolls, and cut names off): it names each series once, scrolls when long, and a click on an entry
// hides or shows the series. Overlaid files keep apart: one colour per file, and stacked bars side by side per
// file. Axes, legend names and regression markers are the chart model's (fitted axes, legendName, red markers
// for Series::regression), so the viewer shows what the HTML report shows. The header keeps Qt Charts out of its
// includers: describe() reads what was drawn back as plain data, which the tests check and which survives a port to Qt
// Graphs.
#pragma once

#include <QColor>
#include <QImage>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "charts/chart_model.hpp"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QListWidget;
class QListWidgetItem;
QT_END_NAMESPACE

namespace pf::gui {

/// A chart of the model as the viewer shows it: with several files open, each series knows its file (run).
struct ViewChart {
  reports::charts::Chart chart;
  std::vector<int> run;           ///< per series: the index of its file in `runs`
  std::vector<std::string> runs;  ///< the files' names; one entry (or none) when one file is open
  /// One file's chart: every series of run 0.
  static ViewChart single(const reports::charts::Chart& c);
  /// The legend name of series `i`: "<file>: <series>" when several files are open.
  QString legendName(size_t i) const;
};

struct DrawnSeries {
  QString name;
  QString kind;  ///< "line", "scatter", "area"
  int points = 0;
  bool dashed = false, visible = true, inLegend = true;  ///< inLegend: listed in the legend now
  std::vector<QPointF> values;                           ///< as plotted: x is log2(x) on a log2 axis
  QColor color;                                          ///< the fill of markers and areas, a line's pen
};

struct DrawnAxis {
  QString kind;  ///< "log2" or "log10" (category axes over log2 or log10 values), "linear"
  double min = 0, max = 0;
  QStringList labels;  ///< the tick labels ("1 KiB", "10 ms", "25 GB/s"), as the Qt axis holds them
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
  ChartView(const ViewChart& chart, bool dark, QWidget* parent = nullptr);

  const std::string& id() const { return model_.chart.id; }
  /// True for a chart of the detail behind a main chart (Chart::secondary: algbw, in-place, p50), which the
  /// panel shows only on request.
  bool isSecondary() const { return model_.chart.secondary; }
  /// Legend entries whose text does not fit their row or the legend's width (none when laid out right).
  QStringList clippedLegendEntries() const;
  /// The legend entries in order, as listed now.
  QStringList legendEntries() const;
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
  void setSeriesVisible(const QString& name, bool visible);
  void fitLegend();

  ViewChart model_;
  QChart* chart_ = nullptr;
  QChartView* view_ = nullptr;
  QListWidget* legend_ = nullptr;
};

/// True when the palette's window colour is dark: the charts then use Qt Charts' dark theme.
bool isDark(const QPalette& palette);

/// Writes `widget` rendered at `size` as an SVG file; false when it cannot be written or Qt Svg is missing.
bool saveWidgetSvg(QWidget* widget, const QString& path, QSize size, const QString& title);

}  // namespace pf::gui

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pair matrix (charts::Heatmap) drawn with QPainter: one cell per node pair coloured from red (0% of the
// expected bandwidth) to green (100% and above), as the HTML report colours it, grey where no pair ran, and
// a colour scale beside it. Hovering a cell shows the pair's own numbers, which the caller supplies.
#pragma once

#include <QImage>
#include <QWidget>
#include <functional>

#include "charts/chart_model.hpp"

namespace pf::gui {

class HeatmapView : public QWidget {
  Q_OBJECT

 public:
  /// `details(row, column)` is the hover text of a cell (the pair's measurements); may be empty.
  using Details = std::function<QString(int, int)>;
  HeatmapView(const reports::charts::Heatmap& heatmap, Details details, QWidget* parent = nullptr);

  const reports::charts::Heatmap& model() const { return model_; }
  /// The cells' area in this widget's coordinates.
  QRect plotArea() const;
  /// The cell under `pos` as (row, column), or (-1, -1).
  std::pair<int, int> cellAt(QPoint pos) const;
  QString toolTipAt(QPoint pos) const;
  /// The colour of a cell: the scale applied to the model's value.
  static QColor cellColor(const std::optional<double>& pct);

  QImage image(QSize size);
  bool saveSvg(const QString& path, QSize size);
  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent*) override;
  bool event(QEvent* e) override;

 private:
  struct Geometry {
    double left, top, cell;
  };
  Geometry geometry() const;

  reports::charts::Heatmap model_;
  Details details_;
};

}  // namespace pf::gui

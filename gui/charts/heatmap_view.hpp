// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pair matrix drawn with QPainter: one cell per direction of each node pair, row -> column, holding that
// direction's bandwidth in GB/s (scaled to MB/s or TB/s where that reads better), coloured from red (0) to green
// (the expected bandwidth, or the best measured where the document has no expectation), grey where no pair
// ran, with a colour scale in the same unit beside it. The chart model's heatmap holds one symmetric % per
// pair; the viewer reads both directions from the document's pair rows (pairMatrix). Hovering a cell shows the
// pair's own numbers, which the caller supplies.
#pragma once

#include <QImage>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <string>
#include <vector>

#include "charts/chart_model.hpp"

namespace pf::gui {

/// The pair matrix as the viewer draws it: gbps[row][column] is the bandwidth from the row's node to the
/// column's, in GB/s.
struct PairMatrix {
  std::string id = "pairs.matrix", title;
  std::vector<std::string> nodes;
  std::vector<std::vector<std::optional<double>>> gbps;
  double full = 0;              ///< GB/s at the top of the colour scale
  bool fullIsExpected = false;  ///< `full` is the expected bandwidth (else the best measured)
  std::vector<std::string> failing;
};

/// The chart model's heatmap of a pairs result (charts::pairHeatmap: both directions, the slowest rail per cell,
/// the failing links), in the viewer's units.
PairMatrix pairMatrix(const reports::charts::Heatmap& heatmap);

class HeatmapView : public QWidget {
  Q_OBJECT

 public:
  /// `details(row, column)` is the hover text of a cell (the pair's measurements); may be empty.
  using Details = std::function<QString(int, int)>;
  HeatmapView(PairMatrix matrix, Details details, QWidget* parent = nullptr);

  const PairMatrix& model() const { return model_; }
  /// The cells' area in this widget's coordinates.
  QRect plotArea() const;
  /// The cell under `pos` as (row, column), or (-1, -1).
  std::pair<int, int> cellAt(QPoint pos) const;
  QString toolTipAt(QPoint pos) const;
  /// The colour of a cell: the scale applied to the fraction of `full` (0 red, 1 and above green).
  static QColor cellColor(const std::optional<double>& fraction);
  /// The colour scale's labels, bottom to top ("0", "175 MB/s", "350 MB/s expected").
  QStringList scaleLabels() const;
  /// The text written in a cell (its bandwidth in the scale's unit), empty where no pair ran.
  QString cellText(int row, int column) const;

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

  PairMatrix model_;
  Details details_;
};

}  // namespace pf::gui

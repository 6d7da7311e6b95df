// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The base of every chart tab: the charts of one subject (ids with one prefix) in a scrolling grid, two per
// row, and room below them for a view's own widgets (the capacity plan's tables). A check box above them shows
// the model's secondary charts (Chart::secondary: algbw, in-place, p50), hidden by default.
#pragma once

#include <QCheckBox>
#include <QGridLayout>
#include <QList>
#include <QPair>
#include <QRect>
#include <QVBoxLayout>
#include <QWidget>
#include <vector>

#include "charts/chart_model.hpp"
#include "charts/chart_view.hpp"

namespace pf::gui {

class ChartPanel : public QWidget {
  Q_OBJECT

 public:
  ChartPanel(const std::vector<ViewChart>& charts, bool dark, QWidget* parent = nullptr);

  const std::vector<ChartView*>& chartViews() const { return views_; }
  /// The chart with this id, or nullptr.
  ChartView* chart(const std::string& id) const;
  /// The check box that shows the secondary charts; hidden when there is none.
  QCheckBox* showAllBox() const { return showAll_; }
  /// Each visible chart's plot area in `window`'s coordinates, named by chart id (the screenshot check).
  virtual QList<QPair<QString, QRect>> plotAreas(QWidget* window) const;
  /// Writes every chart as DIR/<prefix><chart id>.png and .svg; returns the files written.
  QStringList exportAll(const QString& dir, const QString& prefix, QSize size);

 protected:
  /// Where a derived view adds its own widgets, below the charts.
  QVBoxLayout* below() const { return below_; }

 private:
  /// Adds a view per chart to `grid`, two a row (a chart of many series gets a row of its own).
  void layOut(const std::vector<ViewChart>& charts, QGridLayout* grid, QWidget* parent, bool dark);

  std::vector<ChartView*> views_;
  QVBoxLayout* below_ = nullptr;
  QCheckBox* showAll_ = nullptr;
  QWidget* viewport_ = nullptr;  ///< the scroll area's visible part: plot areas are clipped to it
};

/// The charts among `charts` whose id starts with `prefix` ("sweep.", "scale.", "compare.").
std::vector<ViewChart> chartsWithPrefix(const std::vector<ViewChart>& charts, const std::string& prefix);

}  // namespace pf::gui

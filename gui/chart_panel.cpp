// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "chart_panel.hpp"

#include <QCheckBox>
#include <QDir>
#include <QGridLayout>
#include <QScrollArea>
#include <algorithm>

namespace pf::gui {

std::vector<ViewChart> chartsWithPrefix(const std::vector<ViewChart>& charts, const std::string& prefix) {
  std::vector<ViewChart> out;
  for (const auto& c : charts)
    if (c.chart.id.starts_with(prefix)) out.push_back(c);
  return out;
}

ChartPanel::ChartPanel(const std::vector<ViewChart>& charts, bool dark, QWidget* parent) : QWidget(parent) {
  auto* content = new QWidget();
  auto* column = new QVBoxLayout(content);
  // One line per run and measure by default; the model's secondary charts (algbw, in-place, p50) one click away,
  // in a grid of their own below the main ones, so hiding them leaves no hole among those.
  showAll_ = new QCheckBox(tr("Show algbw, in-place and p50 charts"), content);
  column->addWidget(showAll_);
  auto* secondary = new QWidget(content);
  for (bool detail : {false, true}) {
    std::vector<ViewChart> part;
    for (const auto& c : charts)
      if (c.chart.secondary == detail) part.push_back(c);
    auto* grid = new QGridLayout();
    if (detail) {
      secondary->setLayout(grid);
      grid->setContentsMargins(0, 0, 0, 0);
      column->addWidget(secondary);
    } else {
      column->addLayout(grid);
    }
    layOut(part, grid, detail ? secondary : content, dark);
  }
  secondary->setVisible(false);
  showAll_->setVisible(std::any_of(views_.begin(), views_.end(), [](ChartView* v) { return v->isSecondary(); }));
  connect(showAll_, &QCheckBox::toggled, secondary, &QWidget::setVisible);
  below_ = new QVBoxLayout();
  column->addLayout(below_);
  column->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setWidget(content);
  viewport_ = scroll->viewport();
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);
}

void ChartPanel::layOut(const std::vector<ViewChart>& charts, QGridLayout* grid, QWidget* parent, bool dark) {
  // Two charts a row; a chart with many series (several files overlaid) gets a row of its own and more
  // height, so its legend has room for the names.
  int row = 0, col = 0;
  for (const auto& c : charts) {
    auto* view = new ChartView(c, dark, parent);
    const bool wide = c.chart.series.size() > 6;
    view->setMinimumHeight(wide ? 480 : 400);
    if (wide && col == 1) {  // the row's second cell stays empty
      ++row;
      col = 0;
    }
    grid->addWidget(view, row, col, 1, wide ? 2 : 1);
    if (wide || col == 1) {
      ++row;
      col = 0;
    } else {
      col = 1;
    }
    views_.push_back(view);
  }
}

ChartView* ChartPanel::chart(const std::string& id) const {
  for (ChartView* v : views_)
    if (v->id() == id) return v;
  return nullptr;
}

QList<QPair<QString, QRect>> ChartPanel::plotAreas(QWidget* window) const {
  QList<QPair<QString, QRect>> out;
  const QRect visible(viewport_->mapTo(window, QPoint(0, 0)), viewport_->size());
  for (ChartView* v : views_) {
    if (!v->isVisibleTo(window)) continue;  // a secondary chart folded away is not on screen
    const QRect area = v->plotArea();
    // Only the part scrolled into sight is in a screenshot; a chart below the fold is left out.
    const QRect seen = QRect(v->mapTo(window, area.topLeft()), area.size()).intersected(visible);
    if (seen.height() > area.height() / 2) out.append({QString::fromStdString(v->id()), seen});
  }
  return out;
}

QStringList ChartPanel::exportAll(const QString& dir, const QString& prefix, QSize size) {
  QStringList written;
  for (ChartView* v : views_) {
    const QString base = QDir(dir).filePath(prefix + QString::fromStdString(v->id()));
    if (v->savePng(base + ".png", size)) written << base + ".png";
    if (v->saveSvg(base + ".svg", size)) written << base + ".svg";
  }
  return written;
}

}  // namespace pf::gui

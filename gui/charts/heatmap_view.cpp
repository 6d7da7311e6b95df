// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "heatmap_view.hpp"

#include <QHelpEvent>
#include <QLinearGradient>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "chart_view.hpp"

namespace pf::gui {
namespace {

constexpr double kScaleWidth = 90;  // the colour scale and its labels, right of the cells
constexpr double kLabelMin = 14;    // below this cell size node names would overlap: they are left out

}  // namespace

HeatmapView::HeatmapView(const reports::charts::Heatmap& heatmap, Details details, QWidget* parent)
    : QWidget(parent), model_(heatmap), details_(std::move(details)) {
  setMouseTracking(true);
  setMinimumSize(320, 240);
}

QSize HeatmapView::sizeHint() const {
  const int n = static_cast<int>(model_.nodes.size());
  return {std::clamp(140 + 36 * n + 100, 420, 1000), std::clamp(60 + 36 * n, 300, 900)};
}

QColor HeatmapView::cellColor(const std::optional<double>& pct) {
  if (!pct) return QColor(0xdd, 0xdd, 0xdd);
  // 100% of expected is green, 0% red, in between along the hue circle; above 100% stays green.
  return QColor::fromHsl(static_cast<int>(120 * std::clamp(*pct / 100.0, 0.0, 1.0)), 178, 140);
}

HeatmapView::Geometry HeatmapView::geometry() const {
  const double n = std::max<size_t>(1, model_.nodes.size());
  const double top = 40;
  double cell = std::min({36.0, (height() - top - 10) / n, (width() - 20 - kScaleWidth) / n});
  const double left = cell >= kLabelMin ? 110 : 20;
  cell = std::max(1.0, std::min(cell, (width() - left - 10 - kScaleWidth) / n));
  return {left, top, cell};
}

QRect HeatmapView::plotArea() const {
  const Geometry g = geometry();
  const double side = g.cell * static_cast<double>(model_.nodes.size());
  return QRectF(g.left, g.top, side, side).toAlignedRect();
}

std::pair<int, int> HeatmapView::cellAt(QPoint pos) const {
  const Geometry g = geometry();
  const int n = static_cast<int>(model_.nodes.size());
  const int col = static_cast<int>(std::floor((pos.x() - g.left) / g.cell));
  const int row = static_cast<int>(std::floor((pos.y() - g.top) / g.cell));
  if (row < 0 || col < 0 || row >= n || col >= n) return {-1, -1};
  return {row, col};
}

QString HeatmapView::toolTipAt(QPoint pos) const {
  const auto [row, col] = cellAt(pos);
  if (row < 0) return {};
  const auto& v = model_.cells[row][col];
  QString text = QString("%1 - %2: %3")
                     .arg(QString::fromStdString(model_.nodes[row]), QString::fromStdString(model_.nodes[col]),
                          v ? QString::number(*v, 'f', 1) + " " + QString::fromStdString(model_.unit) + " of expected"
                            : QString("no pair"));
  const QString more = details_ ? details_(row, col) : QString();
  return more.isEmpty() ? text : text + "\n" + more;
}

bool HeatmapView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(e);
}

void HeatmapView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().color(QPalette::Base));
  p.setPen(palette().color(QPalette::Text));
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.drawText(QPointF(8, 20), QString::fromStdString(model_.title));
  p.setFont(font());
  const Geometry g = geometry();
  const size_t n = model_.nodes.size();
  const bool labels = g.cell >= kLabelMin;
  for (size_t i = 0; i < n; ++i) {
    if (labels)
      p.drawText(QRectF(0, g.top + g.cell * i, g.left - 6, g.cell), Qt::AlignRight | Qt::AlignVCenter,
                 QString::fromStdString(model_.nodes[i]));
    for (size_t j = 0; j < n; ++j) {
      const QRectF cell(g.left + g.cell * j, g.top + g.cell * i, g.cell - (labels ? 2 : 0), g.cell - (labels ? 2 : 0));
      p.fillRect(cell, cellColor(model_.cells[i][j]));
      if (labels && g.cell >= 24 && model_.cells[i][j]) {
        p.setPen(Qt::black);
        p.drawText(cell, Qt::AlignCenter, QString::number(*model_.cells[i][j], 'f', 0));
        p.setPen(palette().color(QPalette::Text));
      }
    }
  }
  // The colour scale: the same mapping the cells use, 0% at the bottom to 100% at the top.
  const double sx = g.left + g.cell * n + 16, side = std::max(60.0, g.cell * n);
  for (int k = 0; k < 100; ++k)
    p.fillRect(QRectF(sx, g.top + side * (99 - k) / 100.0, 16, side / 100.0 + 1), cellColor(k + 0.5));
  for (int pct : {0, 50, 100})
    p.drawText(QPointF(sx + 20, g.top + side * (100 - pct) / 100.0 + 4), QString("%1%").arg(pct));
}

QImage HeatmapView::image(QSize size) {
  resize(size);
  return grab().toImage();
}

bool HeatmapView::saveSvg(const QString& path, QSize size) {
  resize(size);
  return saveWidgetSvg(this, path, size, QString::fromStdString(model_.title));
}

}  // namespace pf::gui

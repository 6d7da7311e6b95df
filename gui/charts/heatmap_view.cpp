// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "heatmap_view.hpp"

#include <QHelpEvent>
#include <QLinearGradient>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <map>

#include "axis_ticks.hpp"
#include "chart_view.hpp"

namespace pf::gui {
namespace {

constexpr double kScaleWidth = 150;  // the colour scale and its labels, right of the cells
constexpr double kLabelMin = 14;     // below this cell size node names would overlap: they are left out
constexpr double kTop = 64;          // the title and the column names above the cells

// The unit the matrix is written in, chosen by the top of the scale so that cells read 2 to 4 digits.
struct BandwidthUnit {
  double factor;  // GB/s per unit
  const char* name;
};
BandwidthUnit unitFor(double full) {
  if (full >= 1000) return {1000, "TB/s"};
  if (full > 0 && full < 1) return {1e-3, "MB/s"};
  return {1, "GB/s"};
}

QString inUnit(double gbps, BandwidthUnit u) {
  const double v = gbps / u.factor;
  return plainNumber(v, v >= 100 ? 0 : v >= 10 ? 1 : 2);
}

}  // namespace

PairMatrix pairMatrix(const reports::charts::Heatmap& h) {
  PairMatrix m;
  m.id = h.id;
  m.nodes = h.nodes;
  m.gbps = h.gbps;
  m.failing = h.failing;
  m.fullIsExpected = h.expected_gbps.has_value();
  m.full = h.scale_max_gbps;
  m.title = std::string("node-pair bandwidth, row -> column (") + unitFor(m.full).name + ")";
  if (h.rails > 1) m.title += ", the slowest of " + std::to_string(h.rails) + " rails in each cell";
  return m;
}

HeatmapView::HeatmapView(PairMatrix matrix, Details details, QWidget* parent)
    : QWidget(parent), model_(std::move(matrix)), details_(std::move(details)) {
  setMouseTracking(true);
  setMinimumSize(360, 260);
}

QSize HeatmapView::sizeHint() const {
  const int n = static_cast<int>(model_.nodes.size());
  return {std::clamp(140 + 56 * n + 160, 460, 1100), std::clamp(80 + 56 * n, 300, 900)};
}

QColor HeatmapView::cellColor(const std::optional<double>& fraction) {
  if (!fraction) return QColor(0xdd, 0xdd, 0xdd);
  // The full scale (expected) is green, 0 red, in between along the hue circle; above full stays green.
  return QColor::fromHsl(static_cast<int>(120 * std::clamp(*fraction, 0.0, 1.0)), 178, 140);
}

QStringList HeatmapView::scaleLabels() const {
  const BandwidthUnit u = unitFor(model_.full);
  return {"0 " + QString(u.name), inUnit(model_.full / 2, u) + " " + u.name,
          inUnit(model_.full, u) + " " + u.name + (model_.fullIsExpected ? " expected" : " best")};
}

QString HeatmapView::cellText(int row, int column) const {
  const auto& v = model_.gbps[row][column];
  return v ? inUnit(*v, unitFor(model_.full)) : QString();
}

HeatmapView::Geometry HeatmapView::geometry() const {
  const double n = std::max<size_t>(1, model_.nodes.size());
  double cell = std::min({56.0, (height() - kTop - 10) / n, (width() - 20 - kScaleWidth) / n});
  const double left = cell >= kLabelMin ? 110 : 20;
  cell = std::max(1.0, std::min(cell, (width() - left - 10 - kScaleWidth) / n));
  return {left, kTop, cell};
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
  const auto& v = model_.gbps[row][col];
  const BandwidthUnit u = unitFor(model_.full);
  QString text = QString("%1 -> %2: %3")
                     .arg(QString::fromStdString(model_.nodes[row]), QString::fromStdString(model_.nodes[col]),
                          v ? inUnit(*v, u) + " " + u.name : QString("no pair"));
  if (v && model_.fullIsExpected)
    text += QString(" (%1% of the expected %2 %3)")
                .arg(plainNumber(100 * *v / model_.full, 0), inUnit(model_.full, u), QString(u.name));
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
  if (labels) {
    // Which way a cell reads: from the row's node to the column's.
    p.drawText(QRectF(0, g.top - 24, g.left - 6, 20), Qt::AlignRight | Qt::AlignVCenter, tr("from \u2193 to \u2192"));
    for (size_t j = 0; j < n; ++j)
      p.drawText(QRectF(g.left + g.cell * j, g.top - 24, g.cell, 20), Qt::AlignCenter,
                 p.fontMetrics().elidedText(QString::fromStdString(model_.nodes[j]), Qt::ElideRight,
                                            static_cast<int>(g.cell)));
  }
  for (size_t i = 0; i < n; ++i) {
    if (labels)
      p.drawText(QRectF(0, g.top + g.cell * i, g.left - 6, g.cell), Qt::AlignRight | Qt::AlignVCenter,
                 QString::fromStdString(model_.nodes[i]));
    for (size_t j = 0; j < n; ++j) {
      const QRectF cell(g.left + g.cell * j, g.top + g.cell * i, g.cell - (labels ? 2 : 0), g.cell - (labels ? 2 : 0));
      const auto& v = model_.gbps[i][j];
      p.fillRect(cell, cellColor(v && model_.full > 0 ? std::optional<double>(*v / model_.full) : std::nullopt));
      const QString t = cellText(static_cast<int>(i), static_cast<int>(j));
      if (labels && !t.isEmpty() && p.fontMetrics().horizontalAdvance(t) + 4 <= cell.width()) {
        p.setPen(Qt::black);
        p.drawText(cell, Qt::AlignCenter, t);
        p.setPen(palette().color(QPalette::Text));
      }
    }
  }
  // The colour scale: the same mapping the cells use, 0 at the bottom to the full scale at the top.
  const double sx = g.left + g.cell * n + 16, side = std::max(60.0, g.cell * n);
  for (int k = 0; k < 100; ++k)
    p.fillRect(QRectF(sx, g.top + side * (99 - k) / 100.0, 16, side / 100.0 + 1), cellColor((k + 0.5) / 100));
  const QStringList marks = scaleLabels();
  for (int k = 0; k < marks.size(); ++k) p.drawText(QPointF(sx + 20, g.top + side * (1 - k / 2.0) + 4), marks[k]);
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

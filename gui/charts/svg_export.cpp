// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// SVG export through QSvgGenerator (Qt Svg). A build without Qt Svg exports PNG only and says so here.
#include <QPainter>
#include <QWidget>

#include "chart_view.hpp"

#ifdef PF_VIEWER_SVG
#include <QSvgGenerator>
#endif

namespace pf::gui {

bool saveWidgetSvg(QWidget* widget, const QString& path, QSize size, const QString& title) {
#ifdef PF_VIEWER_SVG
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(size);
  svg.setViewBox(QRect(QPoint(0, 0), size));
  svg.setTitle(title);
  QPainter painter;
  if (!painter.begin(&svg)) return false;
  widget->render(&painter);
  return painter.end();
#else
  (void)widget, (void)path, (void)size, (void)title;
  return false;
#endif
}

}  // namespace pf::gui

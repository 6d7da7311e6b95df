// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The chart view's mouse and keys (internal to gui/charts/): Qt's own view zooms with the rubber band only.
#pragma once

#include <QKeyEvent>
#include <QMouseEvent>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>

namespace pf::gui {

// QChartView with the viewer's pan keys and mouse: Qt's own view zooms with the rubber band only.
class PanningView : public QChartView {
 public:
  using QChartView::QChartView;

 protected:
  void keyPressEvent(QKeyEvent* e) override {
    switch (e->key()) {
      case Qt::Key_Left: chart()->scroll(-20, 0); break;
      case Qt::Key_Right: chart()->scroll(20, 0); break;
      case Qt::Key_Up: chart()->scroll(0, 20); break;
      case Qt::Key_Down: chart()->scroll(0, -20); break;
      case Qt::Key_Plus: chart()->zoomIn(); break;
      case Qt::Key_Minus: chart()->zoomOut(); break;
      case Qt::Key_Home: chart()->zoomReset(); break;
      default: QChartView::keyPressEvent(e);
    }
  }
  void mousePressEvent(QMouseEvent* e) override {
    if (e->button() != Qt::MiddleButton) return QChartView::mousePressEvent(e);
    panFrom_ = e->position();
    panning_ = true;
  }
  void mouseMoveEvent(QMouseEvent* e) override {
    if (!panning_) return QChartView::mouseMoveEvent(e);
    const QPointF d = e->position() - panFrom_;
    chart()->scroll(-d.x(), d.y());
    panFrom_ = e->position();
  }
  void mouseReleaseEvent(QMouseEvent* e) override {
    if (panning_ && e->button() == Qt::MiddleButton) {
      panning_ = false;
      return;
    }
    QChartView::mouseReleaseEvent(e);
  }
  void mouseDoubleClickEvent(QMouseEvent*) override { chart()->zoomReset(); }

 private:
  QPointF panFrom_;
  bool panning_ = false;
};

}  // namespace pf::gui

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "chart_view.hpp"

#include <QAction>
#include <QCursor>
#include <QFileDialog>
#include <QGraphicsLayout>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>
#include <QtCharts/QXYSeries>
#include <cmath>

#include "chart_series.hpp"

namespace pf::gui {
namespace {

// The HTML report's ten colours, so one run looks the same in the browser and in the viewer.
const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                               "#8c564b", "#17becf", "#e377c2", "#7f7f7f", "#bcbd22"};

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

QString number(double v) { return QString::number(v, 'g', 6); }

}  // namespace

bool isDark(const QPalette& palette) { return palette.color(QPalette::Window).lightness() < 128; }

ChartView::ChartView(const reports::charts::Chart& chart, bool dark, QWidget* parent) : QWidget(parent), model_(chart) {
  chart_ = new QChart();
  // The theme first: setTheme() recolours every series, ours are coloured after it.
  chart_->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart_->setTitle(QString::fromStdString(model_.title));
  chart_->legend()->setAlignment(Qt::AlignRight);  // Qt's legend does not wrap: below the plot it cuts names
  view_ = new PanningView(chart_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setRubberBand(QChartView::RectangleRubberBand);
  view_->setFocusPolicy(Qt::ClickFocus);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
  addSeries();
  auto* png = new QAction(tr("Export PNG..."), this);
  auto* svg = new QAction(tr("Export SVG..."), this);
  auto* reset = new QAction(tr("Reset zoom"), this);
  connect(png, &QAction::triggered, this, [this] { exportDialog(false); });
  connect(svg, &QAction::triggered, this, [this] { exportDialog(true); });
  connect(reset, &QAction::triggered, chart_, &QChart::zoomReset);
  view_->addActions({png, svg, reset});
  view_->setContextMenuPolicy(Qt::ActionsContextMenu);
  setMinimumSize(420, 300);
}

void ChartView::addSeries() {
  QAbstractAxis* ax = makeAxis(model_.x, xRange(model_));
  QAbstractAxis* ay = makeAxis(model_.y, yRange(model_));
  chart_->addAxis(ax, Qt::AlignBottom);
  chart_->addAxis(ay, Qt::AlignLeft);
  std::vector<std::pair<double, double>> stackTop;
  // Bands first: Qt Charts draws later series on top, and a percentile band must not hide its line.
  std::vector<size_t> order;
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < model_.series.size(); ++i)
      if ((model_.series[i].style == reports::charts::Style::kBand) == (pass == 0)) order.push_back(i);
  for (size_t i : order) {
    const QColor color(kColors[i % (sizeof(kColors) / sizeof(kColors[0]))]);
    DrawnParts parts = makeSeries(model_.series[i], model_, color, stackTop);
    const QString name = parts.main->name();
    for (QAbstractSeries* s : parts.helpers) {
      chart_->addSeries(s);
      s->attachAxis(ax);
      s->attachAxis(ay);
      for (QLegendMarker* m : chart_->legend()->markers(s)) m->setVisible(false);
      s->setProperty("pfHelper", true);  // describe() tells helpers from series by this, shown or not
    }
    chart_->addSeries(parts.main);
    parts.main->attachAxis(ax);
    parts.main->attachAxis(ay);
    // Hover: the exact values of the model point nearest the cursor, not the interpolated position.
    auto hover = [this, name](const QPointF& p, bool state) {
      if (!state) return QToolTip::hideText();
      QToolTip::showText(QCursor::pos(), hoverText(name, AxisMap{model_.x.scale}.from(p.x())), view_);
    };
    if (auto* xy = qobject_cast<QXYSeries*>(parts.main)) connect(xy, &QXYSeries::hovered, this, hover);
    if (auto* area = qobject_cast<QAreaSeries*>(parts.main)) connect(area, &QAreaSeries::hovered, this, hover);
    for (QLegendMarker* m : chart_->legend()->markers(parts.main)) {
      connect(m, &QLegendMarker::clicked, this, [this, name] { toggleSeries(name); });
    }
    // Helpers follow the visibility of the series they belong to.
    for (QAbstractSeries* h : parts.helpers)
      connect(parts.main, &QAbstractSeries::visibleChanged, h, [h, parts] { h->setVisible(parts.main->isVisible()); });
  }
}

void ChartView::toggleSeries(const QString& name) {
  for (QAbstractSeries* s : chart_->series()) {
    if (s->name() != name) continue;
    s->setVisible(!s->isVisible());
    // Hiding a series hides its marker too; keep it, greyed, so a second click brings the series back.
    for (QLegendMarker* m : chart_->legend()->markers(s)) {
      m->setVisible(true);
      QColor c = m->labelBrush().color();
      c.setAlphaF(s->isVisible() ? 1.0 : 0.4);
      m->setLabelBrush(c);
    }
  }
}

QString ChartView::hoverText(const QString& name, double x) const {
  for (const auto& s : model_.series) {
    if (seriesName(s) != name || s.points.empty()) continue;
    const AxisMap m{model_.x.scale};
    const reports::charts::Point* best = nullptr;
    for (const auto& p : s.points)
      if (m.usable(p.x) && (!best || std::abs(m.to(p.x) - m.to(x)) < std::abs(m.to(best->x) - m.to(x)))) best = &p;
    if (!best) return {};
    const QString xs = model_.x.binarySuffix ? QString::fromStdString(reports::charts::binarySize(best->x))
                                             : number(best->x) + " " + QString::fromStdString(model_.x.unit);
    const QString unit = QString::fromStdString(model_.y.unit);
    QString text = QString("%1\n%2: %3 %4").arg(name, xs, number(best->y), unit);
    if (best->low && best->high)
      text += QString("\nrange %1 - %2 %3").arg(number(*best->low), number(*best->high), unit);
    return text;
  }
  return {};
}

QRect ChartView::plotArea() const {
  const QRect inView = view_->mapFromScene(chart_->mapToScene(chart_->plotArea())).boundingRect();
  return inView.translated(view_->geometry().topLeft());
}

DrawnChart ChartView::describe() const {
  DrawnChart d{QString::fromStdString(model_.id), chart_->title(), {}, {}, {}};
  auto axis = [](QAbstractAxis* a) {
    DrawnAxis out;
    out.title = a->titleText();
    if (auto* c = qobject_cast<QCategoryAxis*>(a)) {
      out = {"log2", c->min(), c->max(), c->categoriesLabels(), a->titleText()};
    } else if (auto* l = qobject_cast<QLogValueAxis*>(a)) {
      out = {"log10", l->min(), l->max(), {}, a->titleText()};
    } else if (auto* v = qobject_cast<QValueAxis*>(a)) {
      out = {"linear", v->min(), v->max(), {}, a->titleText()};
    }
    return out;
  };
  d.x = axis(chart_->axes(Qt::Horizontal).value(0));
  d.y = axis(chart_->axes(Qt::Vertical).value(0));
  for (QAbstractSeries* s : chart_->series()) {
    DrawnSeries ds;
    ds.name = s->name();
    ds.visible = s->isVisible();
    ds.inLegend = !s->property("pfHelper").toBool();
    const QXYSeries* xy = qobject_cast<QXYSeries*>(s);
    if (auto* area = qobject_cast<QAreaSeries*>(s)) {
      ds.kind = "area";
      xy = area->upperSeries();
    } else {
      ds.kind = s->type() == QAbstractSeries::SeriesTypeScatter ? "scatter" : "line";
      ds.dashed = xy->pen().style() == Qt::DashLine;
    }
    ds.points = static_cast<int>(xy->count());
    for (const QPointF& p : xy->points()) ds.values.push_back(p);
    d.series.push_back(std::move(ds));
  }
  return d;
}

QImage ChartView::image(QSize size) {
  resize(size);
  // grab() sends the pending resize even to a hidden widget; the chart lays out on the next grab.
  (void)grab();
  chart_->layout()->activate();
  return grab().toImage();
}

bool ChartView::savePng(const QString& path, QSize size) { return image(size).save(path, "PNG"); }

bool ChartView::saveSvg(const QString& path, QSize size) {
  resize(size);
  (void)grab();
  return saveWidgetSvg(view_, path, size, chart_->title());
}

void ChartView::exportDialog(bool svg) {
  const QString suffix = svg ? "svg" : "png";
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export chart"), QString::fromStdString(model_.id) + "." + suffix,
                                   svg ? tr("SVG (*.svg)") : tr("PNG (*.png)"));
  if (path.isEmpty()) return;
  if (svg)
    saveSvg(path, view_->size());
  else
    view_->grab().save(path, "PNG");
}

}  // namespace pf::gui

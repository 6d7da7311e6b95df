// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "chart_view.hpp"

#include <QAction>
#include <QCursor>
#include <QFileDialog>
#include <QGraphicsLayout>
#include <QKeyEvent>
#include <QListWidget>
#include <QPainter>
#include <QSignalBlocker>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QXYSeries>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "axis_ticks.hpp"
#include "chart_series.hpp"
#include "panning_view.hpp"

namespace pf::gui {
namespace {

// Colours, pen styles and shades that tell the series of one file apart when the colour stands for the file.
constexpr Qt::PenStyle kPens[] = {Qt::SolidLine, Qt::DashDotLine, Qt::DotLine, Qt::DashDotDotLine};

// The HTML report's colours, so one run looks the same in the browser and in the viewer.
QColor paletteColor(size_t i) { return QColor(reports::charts::seriesColor(i)); }

QColor shade(QColor base, size_t k) {
  if (k == 0) return base.darker(125);
  return k == 1 ? base.lighter(120) : base.lighter(static_cast<int>(150 + 40 * (k - 2)));
}

// A series and its spread (min-max band, p50 markers) share a family, and so a colour.
std::string family(const reports::charts::Series& s) {
  std::string n = s.name;
  for (const char* part : {" min-max", " p50"})
    if (auto at = n.find(part); at != std::string::npos) n.erase(at, std::strlen(part));
  return n + (s.predicted ? "|predicted" : "");
}

// The legend's sample of a series: a line in its pen, a marker, or a filled box.
QIcon sampleIcon(QAbstractSeries* s) {
  QPixmap pm(28, 14);
  pm.fill(Qt::transparent);
  QPainter p(&pm);
  p.setRenderHint(QPainter::Antialiasing);
  if (auto* area = qobject_cast<QAreaSeries*>(s)) {
    p.fillRect(QRectF(4, 2, 20, 10), area->brush());
  } else if (auto* scatter = qobject_cast<QScatterSeries*>(s)) {
    p.setPen(scatter->pen());
    p.setBrush(scatter->brush());
    p.drawRect(QRectF(9, 2, 10, 10));
  } else if (auto* line = qobject_cast<QXYSeries*>(s)) {
    p.setPen(line->pen());
    p.drawLine(QPointF(1, 7), QPointF(27, 7));
  }
  return QIcon(pm);
}

QString formatX(const reports::charts::Axis& a, double v) {
  return a.binarySuffix ? QString::fromStdString(reports::charts::binarySize(v)) : formatValue(v, a.unit, false, 6);
}

}  // namespace

bool isDark(const QPalette& palette) { return palette.color(QPalette::Window).lightness() < 128; }

ViewChart ViewChart::single(const reports::charts::Chart& c) { return {c, std::vector<int>(c.series.size(), 0), {}}; }

QString ViewChart::legendName(size_t i) const {
  const QString name = QString::fromStdString(reports::charts::legendName(chart.series[i]));
  return runs.size() > 1 ? QString::fromStdString(runs[static_cast<size_t>(run[i])]) + ": " + name : name;
}

ChartView::ChartView(const ViewChart& chart, bool dark, QWidget* parent) : QWidget(parent), model_(chart) {
  // The builders fit every chart; one made by hand (or merged from several files unfitted) is fitted here.
  if (!model_.chart.x.fitted() || !model_.chart.y.fitted()) reports::charts::fitAxes(model_.chart);
  if (model_.run.size() != model_.chart.series.size()) model_.run.assign(model_.chart.series.size(), 0);
  chart_ = new QChart();
  // The theme first: setTheme() recolours every series, ours are coloured after it.
  chart_->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart_->setTitle(QString::fromStdString(model_.chart.title));
  chart_->legend()->hide();
  view_ = new PanningView(chart_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setRubberBand(QChartView::RectangleRubberBand);
  view_->setFocusPolicy(Qt::ClickFocus);
  legend_ = new QListWidget(this);
  legend_->setSelectionMode(QAbstractItemView::NoSelection);
  legend_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  legend_->setTextElideMode(Qt::ElideNone);
  legend_->setFrameShape(QFrame::NoFrame);
  legend_->viewport()->setAutoFillBackground(false);  // on the window's colour, below the chart
  legend_->setIconSize(QSize(28, 14));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(view_, 1);
  layout->addWidget(legend_);
  addSeries();
  connect(legend_, &QListWidget::itemChanged, this,
          [this](QListWidgetItem* item) { setSeriesVisible(item->text(), item->checkState() == Qt::Checked); });
  fitLegend();
  auto* png = new QAction(tr("Export PNG..."), this);
  auto* svg = new QAction(tr("Export SVG..."), this);
  auto* reset = new QAction(tr("Reset zoom"), this);
  connect(png, &QAction::triggered, this, [this] { exportDialog(false); });
  connect(svg, &QAction::triggered, this, [this] { exportDialog(true); });
  connect(reset, &QAction::triggered, chart_, &QChart::zoomReset);
  view_->addActions({png, svg, reset});
  view_->setContextMenuPolicy(Qt::ActionsContextMenu);
  setMinimumHeight(300);  // the minimum width fits the legend (addSeries)
}

void ChartView::addSeries() {
  const auto& c = model_.chart;
  QAbstractAxis* ax = makeAxis(c.x);
  QAbstractAxis* ay = makeAxis(c.y);
  chart_->addAxis(ax, Qt::AlignBottom);
  chart_->addAxis(ay, Qt::AlignLeft);
  StackTops stackTop;
  // Colour per file only where the chart holds several files' series; a chart of one file colours its families.
  const bool several = runsIn(model_) > 1;
  std::vector<int> present = model_.run;
  std::sort(present.begin(), present.end());
  present.erase(std::unique(present.begin(), present.end()), present.end());
  // Families in first-seen order: with one file each family has a colour; with several, the file has the colour
  // and the family a pen style (lines) or a shade (stacked bars).
  std::vector<std::string> families;
  auto familyIndex = [&](const reports::charts::Series& s) {
    const std::string f = family(s);
    auto it = std::find(families.begin(), families.end(), f);
    if (it == families.end()) it = families.insert(families.end(), f);
    return static_cast<size_t>(it - families.begin());
  };
  for (const auto& s : c.series) familyIndex(s);
  // Bands first: Qt Charts draws later series on top, and a percentile band must not hide its line.
  std::vector<size_t> order;
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < c.series.size(); ++i)
      if ((c.series[i].style == reports::charts::Style::kBand) == (pass == 0)) order.push_back(i);
  std::vector<std::pair<size_t, QAbstractSeries*>> listed;
  for (size_t i : order) {
    const auto& ms = c.series[i];
    const size_t fam = familyIndex(ms), run = static_cast<size_t>(model_.run[i]);
    SeriesLook look;
    look.color = paletteColor(several ? run : fam);
    if (several && ms.style == reports::charts::Style::kStacked) look.color = shade(look.color, fam);
    if (several) look.pen = kPens[fam % (sizeof(kPens) / sizeof(kPens[0]))];
    look.slot = static_cast<int>(std::find(present.begin(), present.end(), model_.run[i]) - present.begin());
    look.slotCount = static_cast<int>(present.size());
    DrawnParts parts = makeSeries(ms, model_, look, stackTop);
    const QString name = model_.legendName(i);
    parts.main->setName(name);
    for (QAbstractSeries* s : parts.helpers) {
      chart_->addSeries(s);
      s->attachAxis(ax);
      s->attachAxis(ay);
      s->setProperty("pfHelper", true);  // describe() tells helpers from series by this, shown or not
    }
    chart_->addSeries(parts.main);
    parts.main->attachAxis(ax);
    parts.main->attachAxis(ay);
    // Hover: the exact values of the model point nearest the cursor, not the interpolated position.
    auto hover = [this, name](const QPointF& p, bool state) {
      if (!state) return QToolTip::hideText();
      QToolTip::showText(QCursor::pos(), hoverText(name, AxisMap{model_.chart.x.scale}.from(p.x())), view_);
    };
    if (auto* xy = qobject_cast<QXYSeries*>(parts.main)) connect(xy, &QXYSeries::hovered, this, hover);
    if (auto* area = qobject_cast<QAreaSeries*>(parts.main)) connect(area, &QAreaSeries::hovered, this, hover);
    // Helpers follow the visibility of the series they belong to.
    for (QAbstractSeries* h : parts.helpers)
      connect(parts.main, &QAbstractSeries::visibleChanged, h, [h, parts] { h->setVisible(parts.main->isVisible()); });
    listed.emplace_back(i, parts.main);
  }
  // The legend in the model's order (bands were drawn first, but are listed where the model puts them).
  std::sort(listed.begin(), listed.end());
  int width = 0;
  const QFontMetrics fm(legend_->font());
  for (const auto& [i, s] : listed) {
    auto* item = new QListWidgetItem(sampleIcon(s), s->name(), legend_);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Checked);
    item->setToolTip(s->name());
    width = std::max(width, fm.horizontalAdvance(s->name()));
  }
  // The chart's width below the plot, so no name is cut: at least the longest name beside its check box and sample.
  const int indicator = legend_->style()->pixelMetric(QStyle::PM_IndicatorWidth);
  const int scroll = legend_->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  setMinimumWidth(std::max(420, width + indicator + legend_->iconSize().width() + scroll + 32));
}

void ChartView::fitLegend() {
  // As many rows as entries, up to six; beyond that the list scrolls.
  int shown = 0;
  for (int i = 0; i < legend_->count(); ++i) shown += !legend_->item(i)->isHidden();
  const int row = legend_->count() ? legend_->sizeHintForRow(0) : 0;
  legend_->setFixedHeight(std::min(shown, 6) * row + 4);
}

void ChartView::setSeriesVisible(const QString& name, bool visible) {
  for (QAbstractSeries* s : chart_->series())
    if (s->name() == name && !s->property("pfHelper").toBool()) s->setVisible(visible);
  const QSignalBlocker block(legend_);
  for (QListWidgetItem* item : legend_->findItems(name, Qt::MatchExactly))
    item->setCheckState(visible ? Qt::Checked : Qt::Unchecked);
}

void ChartView::toggleSeries(const QString& name) {
  for (QAbstractSeries* s : chart_->series())
    if (s->name() == name && !s->property("pfHelper").toBool()) return setSeriesVisible(name, !s->isVisible());
}

QStringList ChartView::legendEntries() const {
  QStringList out;
  for (int i = 0; i < legend_->count(); ++i)
    if (!legend_->item(i)->isHidden()) out << legend_->item(i)->text();
  return out;
}

QStringList ChartView::clippedLegendEntries() const {
  QStringList out;
  QStyleOptionViewItem option;
  option.initFrom(legend_);
  option.decorationSize = legend_->iconSize();
  option.features =
      QStyleOptionViewItem::HasDisplay | QStyleOptionViewItem::HasDecoration | QStyleOptionViewItem::HasCheckIndicator;
  const int room = legend_->width() - legend_->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  for (int i = 0; i < legend_->count(); ++i) {
    QListWidgetItem* item = legend_->item(i);
    if (item->isHidden()) continue;
    const QModelIndex index = legend_->model()->index(i, 0);
    const int needed = legend_->itemDelegate()->sizeHint(option, index).width();
    if (needed > room || legend_->fontMetrics().horizontalAdvance(item->text()) > room) out << item->text();
  }
  return out;
}

QString ChartView::hoverText(const QString& name, double x) const {
  const auto& c = model_.chart;
  for (size_t i = 0; i < c.series.size(); ++i) {
    const auto& s = c.series[i];
    if (model_.legendName(i) != name || s.points.empty()) continue;
    const AxisMap m{c.x.scale};
    const reports::charts::Point* best = nullptr;
    for (const auto& p : s.points)
      if (m.usable(p.x) && (!best || std::abs(m.to(p.x) - m.to(x)) < std::abs(m.to(best->x) - m.to(x)))) best = &p;
    if (!best) return {};
    const std::string& unit = c.y.unit;
    const QString xs =
        formatX(c.x, best->x) + (unitInTicks(c.x) || c.x.unit.empty() ? "" : " " + QString::fromStdString(c.x.unit));
    const QString ys = formatValue(best->y, unit, c.y.binarySuffix, 6) +
                       (unitInTicks(c.y) || unit.empty() ? "" : " " + QString::fromStdString(unit));
    QString text = QString("%1\n%2: %3").arg(name, xs, ys);
    if (best->low && best->high)
      text += QString("\nrange %1 - %2")
                  .arg(formatValue(*best->low, unit, c.y.binarySuffix, 6),
                       formatValue(*best->high, unit, c.y.binarySuffix, 6));
    return text;
  }
  return {};
}

QRect ChartView::plotArea() const {
  const QRect inView = view_->mapFromScene(chart_->mapToScene(chart_->plotArea())).boundingRect();
  return inView.translated(view_->geometry().topLeft());
}

DrawnChart ChartView::describe() const {
  DrawnChart d{QString::fromStdString(model_.chart.id), chart_->title(), {}, {}, {}};
  auto axis = [](QAbstractAxis* a) {
    DrawnAxis out;
    out.title = a->titleText();
    if (auto* c = qobject_cast<QCategoryAxis*>(a))
      out = {a->property("pfScale").toString(), c->min(), c->max(), c->categoriesLabels(), a->titleText()};
    return out;
  };
  const QStringList listed = legendEntries();
  d.x = axis(chart_->axes(Qt::Horizontal).value(0));
  d.y = axis(chart_->axes(Qt::Vertical).value(0));
  for (QAbstractSeries* s : chart_->series()) {
    DrawnSeries ds;
    ds.name = s->name();
    ds.visible = s->isVisible();
    ds.inLegend = !s->property("pfHelper").toBool() && listed.contains(s->name());
    const QXYSeries* xy = qobject_cast<QXYSeries*>(s);
    if (auto* area = qobject_cast<QAreaSeries*>(s)) {
      ds.kind = "area";
      ds.color = area->brush().color();
      xy = area->upperSeries();
    } else {
      ds.kind = s->type() == QAbstractSeries::SeriesTypeScatter ? "scatter" : "line";
      ds.dashed = xy->pen().style() == Qt::DashLine;
      ds.color = ds.kind == "scatter" && xy->brush().style() != Qt::NoBrush && xy->brush().color().alpha() > 0
                     ? xy->brush().color()
                     : xy->pen().color();
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
  layout()->activate();
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
      QFileDialog::getSaveFileName(this, tr("Export chart"), QString::fromStdString(model_.chart.id) + "." + suffix,
                                   svg ? tr("SVG (*.svg)") : tr("PNG (*.png)"));
  if (path.isEmpty()) return;
  if (svg)
    saveSvg(path, view_->size());
  else
    view_->grab().save(path, "PNG");
}

}  // namespace pf::gui

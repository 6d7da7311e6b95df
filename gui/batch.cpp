// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "batch.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>

#include "chart_panel.hpp"
#include "main_window.hpp"
#include "pairs_view.hpp"

namespace pf::gui {
namespace {

// Lets the window lay out and paint: layouts and Qt Charts' scene update on posted events.
void settle(int ms) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

}  // namespace

int exportPngs(const QString& dir, const QStringList& files, QTextStream& err) {
  if (!QDir().mkpath(dir)) {
    err << "preflight-viewer: cannot create " << dir << "\n";
    return 2;
  }
  int rc = 0;
  for (const QString& file : files) {
    DocumentSet one;
    const QStringList errors = one.open({file});
    if (!errors.isEmpty()) {
      err << "preflight-viewer: " << errors.join("; ") << "\n";
      rc = 2;
      continue;
    }
    const Document& doc = one.documents().front();
    const QString stem = QDir(dir).filePath(QString::fromStdString(doc.name) + "-");
    for (const auto& chart : doc.charts.charts) {
      ChartView view(ViewChart::single(chart), false);
      const QString path = stem + QString::fromStdString(chart.id) + ".png";
      if (!view.savePng(path, kExportSize)) err << "preflight-viewer: cannot write " << path << "\n", rc = 2;
    }
    for (const reports::charts::Heatmap& h : doc.charts.heatmaps) {
      const PairMatrix hm = pairMatrix(h);
      HeatmapView view(hm, {});
      const QString path = stem + QString::fromStdString(hm.id) + ".png";
      if (!view.image(kExportSize).save(path, "PNG")) err << "preflight-viewer: cannot write " << path << "\n", rc = 2;
    }
  }
  return rc;
}

int screenshots(MainWindow& window, const QString& dir, QTextStream& err) {
  if (!QDir().mkpath(dir)) {
    err << "preflight-viewer: cannot create " << dir << "\n";
    return 2;
  }
  window.show();
  settle(500);
  QTabWidget* tabs = window.tabs();
  for (int i = 0; i < tabs->count(); ++i) {
    tabs->setCurrentIndex(i);
    settle(400);
    const QString name = tabs->tabText(i).toLower().replace('/', '-');
    QList<QPair<QString, QRect>> areas;
    if (auto* panel = qobject_cast<ChartPanel*>(tabs->widget(i))) areas = panel->plotAreas(&window);
    if (auto* pairs = qobject_cast<PairsView*>(tabs->widget(i))) areas = pairs->plotAreas(&window);
    QJsonArray boxes;
    for (const auto& [id, r] : areas)
      boxes.append(QJsonObject{{"id", id}, {"x", r.x()}, {"y", r.y()}, {"w", r.width()}, {"h", r.height()}});
    const QString base = QDir(dir).filePath("viewer-" + name);
    QFile json(base + ".json");
    if (!window.grab().save(base + ".png", "PNG") || !json.open(QIODevice::WriteOnly)) {
      err << "preflight-viewer: cannot write " << base << ".png/.json\n";
      return 2;
    }
    json.write(QJsonDocument(QJsonObject{{"boxes", boxes}}).toJson());
  }
  return 0;
}

}  // namespace pf::gui

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The viewer built from the golden documents: each view holds the chart model's series with its point counts
// and values, on the axes the model asks for; a bad file is a message naming it and the others stay open; a
// streaming document reloads; --export-png's renderer writes non-blank images of the export size.
#include <QDir>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>
#include <cmath>
#include <filesystem>

#include "batch.hpp"
#include "chart_panel.hpp"
#include "check_view.hpp"
#include "main_window.hpp"
#include "pairs_view.hpp"
#include "pf/import.hpp"
#include "pf/report_io.hpp"

using namespace pf;
using namespace pf::gui;

namespace {

QString golden(const char* name) { return QString(PF_GOLDEN_DIR "/documents/") + name; }

const DrawnSeries* findSeries(const DrawnChart& c, const QString& name) {
  for (const auto& s : c.series)
    if (s.name == name) return &s;
  return nullptr;
}

// Pixels that differ from the image's corner (the background): something was drawn.
int drawnPixels(const QImage& img) {
  const QRgb bg = img.pixel(0, 0);
  int n = 0;
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2) n += img.pixel(x, y) != bg;
  return n;
}

}  // namespace

class ViewerTest : public QObject {
  Q_OBJECT

 private slots:
  void scalingViewDrawsTheScaleCharts() {
    MainWindow w(false);
    QVERIFY(w.openFiles({golden("capacity.json")}).isEmpty());
    auto* view = qobject_cast<ChartPanel*>(w.tab("Scaling"));
    QVERIFY(view);
    QVERIFY(!w.tab("Sweeps"));
    const auto model = reports::charts::chartsFor(readReport(golden("capacity.json").toStdString())).charts;
    QCOMPARE(view->chartViews().size(), model.size());
    for (const auto& chart : model) {
      ChartView* cv = view->chart(chart.id);
      QVERIFY2(cv, chart.id.c_str());
      const DrawnChart d = cv->describe();
      QCOMPARE(d.x.kind, QString("log2"));  // world size on a log2 axis, ticks at powers of two
      for (const auto& s : chart.series) {
        const DrawnSeries* ds = findSeries(d, QString::fromStdString(s.predicted ? s.name + " (predicted)" : s.name));
        QVERIFY2(ds, s.name.c_str());
        QVERIFY(ds->inLegend);
        if (s.style == reports::charts::Style::kStacked) {
          QCOMPARE(ds->kind, QString("area"));
          QCOMPARE(ds->points, static_cast<int>(4 * s.points.size()));  // four corners per bar
          continue;
        }
        QCOMPARE(ds->points, static_cast<int>(s.points.size()));
        // Predicted and ideal lines are dashed; predicted markers are hollow squares instead.
        if (ds->kind == "line") QCOMPARE(ds->dashed, s.predicted || s.style == reports::charts::Style::kIdeal);
        for (size_t i = 0; i < s.points.size(); ++i) {
          QCOMPARE(ds->values[i].x(), std::log2(s.points[i].x));
          QCOMPARE(ds->values[i].y(), s.points[i].y);
          QVERIFY(ds->values[i].x() >= d.x.min && ds->values[i].x() <= d.x.max);
          QVERIFY(ds->values[i].y() >= d.y.min && ds->values[i].y() <= d.y.max);
        }
      }
    }
    const DrawnChart eff = view->chart("scale.efficiency")->describe();
    QVERIFY(eff.x.labels.contains("1") && eff.x.labels.contains("64"));
    QCOMPARE(eff.y.kind, QString("linear"));
    QCOMPARE(eff.y.min, 0.0);
    // The measured E(N) has min-max error bars: one helper series, kept out of the legend.
    QVERIFY(std::any_of(eff.series.begin(), eff.series.end(), [](const auto& s) { return !s.inLegend; }));
  }

  void sweepsOverlayTwoFilesWithBinaryLabels() {
    QTemporaryDir tmp;
    const QString second = tmp.filePath("sweep_b.json");
    QVERIFY(QFile::copy(golden("sweep.json"), second));
    MainWindow w(false);
    QVERIFY(w.openFiles({golden("sweep.json"), second}).isEmpty());
    auto* view = qobject_cast<ChartPanel*>(w.tab("Sweeps"));
    QVERIFY(view);
    const auto model = reports::charts::chartsFor(readReport(golden("sweep.json").toStdString())).charts;
    QCOMPARE(view->chartViews().size(), model.size());  // same ids: one chart each, not two
    const DrawnChart bw = view->chart("sweep.all_reduce.float.sum.bandwidth")->describe();
    const auto& busbw = model.front().series.front();
    for (const char* file : {"sweep", "sweep_b"}) {
      const DrawnSeries* s = findSeries(bw, QString("%1: %2").arg(file, QString::fromStdString(busbw.name)));
      QVERIFY2(s, file);
      QCOMPARE(s->points, static_cast<int>(busbw.points.size()));
      QCOMPARE(s->values.back().y(), busbw.points.back().y);
    }
    QCOMPARE(bw.series.size(), 2 * model.front().series.size());
    QCOMPARE(bw.x.kind, QString("log2"));
    QVERIFY2(bw.x.labels.contains("1 KiB"), qPrintable(bw.x.labels.join(",")));
    QVERIFY(bw.x.labels.contains("64 B"));
    QCOMPARE(view->chart("sweep.all_reduce.float.sum.time")->describe().y.kind, QString("log10"));
    // Hover shows the model's exact value; a legend click hides the series and a second one shows it.
    ChartView* cv = view->chart("sweep.all_reduce.float.sum.bandwidth");
    const QString name = "sweep: " + QString::fromStdString(busbw.name);
    QVERIFY(cv->hoverText(name, busbw.points.back().x).contains(QString::number(busbw.points.back().y, 'g', 6)));
    cv->toggleSeries(name);
    QVERIFY(!findSeries(cv->describe(), name)->visible);
    cv->toggleSeries(name);
    QVERIFY(findSeries(cv->describe(), name)->visible);
  }

  void ncclTestsOutputOpensAsASweep() {
    // nccl-tests text as people keep it: imported by core (pf::loadDocument), charted like a preflight sweep.
    const QString log = QString(PF_SOURCE_DIR "/tests/fixtures/nccl-tests/ztan-a3mega-16ranks.txt");
    MainWindow w(false);
    QVERIFY(w.openFiles({log}).isEmpty());
    auto* view = qobject_cast<ChartPanel*>(w.tab("Sweeps"));
    QVERIFY(view);
    const auto model = reports::charts::chartsFor(pf::loadDocument(log.toStdString())).charts;
    QVERIFY(!model.empty());
    QCOMPARE(view->chartViews().size(), model.size());
    const DrawnChart d = view->chart(model.front().id)->describe();
    const auto& first = model.front().series.front();
    const DrawnSeries* s = findSeries(d, QString::fromStdString(first.name));  // one file: no file prefix
    QVERIFY2(s, first.name.c_str());
    QCOMPARE(s->points, static_cast<int>(first.points.size()));
    QCOMPARE(s->values.back().y(), first.points.back().y);
  }

  void pairsViewShowsTheMatrixAndFailures() {
    MainWindow w(false);
    QVERIFY(w.openFiles({golden("pairs.json")}).isEmpty());
    auto* view = qobject_cast<PairsView*>(w.tab("Pairs"));
    QVERIFY(view);
    QCOMPARE(view->heatmaps().size(), size_t(1));
    HeatmapView* hm = view->heatmaps().front();
    const auto model = reports::charts::chartsFor(readReport(golden("pairs.json").toStdString())).heatmaps.front();
    QCOMPARE(hm->model().nodes, model.nodes);
    hm->resize(900, 600);
    const QRect area = hm->plotArea();
    const double cell = area.width() / static_cast<double>(model.nodes.size());
    const QPoint c01(area.left() + static_cast<int>(1.5 * cell), area.top() + static_cast<int>(0.5 * cell));
    QCOMPARE(hm->cellAt(c01), std::make_pair(0, 1));
    QVERIFY2(hm->toolTipAt(c01).contains("GB/s"), qPrintable(hm->toolTipAt(c01)));
    for (const auto& f : model.failing) QVERIFY(view->failures().contains(QString::fromStdString(f)));
    QVERIFY(std::any_of(view->failures().begin(), view->failures().end(),
                        [](const QString& s) { return s.contains("node2"); }));
    QVERIFY(drawnPixels(hm->image(QSize(900, 600))) > 1000);
  }

  void checkViewListsFailuresFirst() {
    MainWindow w(false);
    QVERIFY(w.openFiles({golden("check.json"), golden("doctor.json")}).isEmpty());
    auto* view = qobject_cast<CheckView*>(w.tab("Check/Probes"));
    QVERIFY(view);
    QTableWidget* t = view->table();
    QVERIFY(t->rowCount() > 10);
    for (int r = 1; r < t->rowCount(); ++r)
      QVERIFY(statusFromString(t->item(r - 1, 0)->text().toStdString()) >=
              statusFromString(t->item(r, 0)->text().toStdString()));
    QVERIFY(!t->item(0, 5)->text().isEmpty());  // the worst finding comes with its remedy
  }

  void aBadFileIsAMessageAndTheOthersStay() {
    QTemporaryDir tmp;
    const QString broken = tmp.filePath("broken.json"), missing = tmp.filePath("missing.json");
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"schema_version\": 2, \"results\": [");
    f.close();
    MainWindow w(false);
    const QStringList errors = w.openFiles({golden("sweep.json"), broken, missing, golden("capacity.json")});
    QCOMPARE(errors.size(), 2);
    QVERIFY(errors[0].contains("broken.json"));
    QVERIFY(errors[1].contains("missing.json"));
    QCOMPARE(w.documents().documents().size(), size_t(2));
    QVERIFY(w.tab("Sweeps") && w.tab("Scaling"));
    QCOMPARE(w.openFiles({broken}).size(), 1);  // later failures leave what is open alone
    QCOMPARE(w.documents().documents().size(), size_t(2));
  }

  void aChangedFileReloads() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("streaming.json");
    writeReport(readReport(golden("sweep.json").toStdString()), path.toStdString());
    DocumentSet set;
    QVERIFY(set.open({path}).isEmpty());
    QSignalSpy spy(&set, &DocumentSet::changed);
    RunReport grown = readReport(golden("capacity.json").toStdString());
    writeReport(grown, path.toStdString());  // atomic rename, as a streaming sweep writes
    QVERIFY(spy.wait(5000));
    QCOMPARE(set.documents().front().report.results.size(), grown.results.size());
  }

  void exportPngWritesNonBlankImages() {
    QTemporaryDir tmp;
    QString errText;
    QTextStream err(&errText);
    QCOMPARE(exportPngs(tmp.path(), {golden("sweep.json"), golden("capacity.json")}, err), 0);
    const QStringList files = QDir(tmp.path()).entryList({"*.png"});
    QCOMPARE(files.size(), 6);
    for (const QString& f : files) {
      QImage img(tmp.filePath(f));
      QCOMPARE(img.size(), kExportSize);
      QVERIFY2(drawnPixels(img) > 2000, qPrintable(f));
    }
    QVERIFY(files.contains("capacity-scale.efficiency.png"));
  }
};

QTEST_MAIN(ViewerTest)
#include "viewer_test.moc"

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The viewer built from the golden documents: each view holds the chart model's series with its point counts
// and values, on the axes the model asks for; a bad file is a message naming it and the others stay open; a
// streaming document reloads; --export-png's renderer writes non-blank images of the export size.
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <map>

#include "batch.hpp"
#include "chart_panel.hpp"
#include "charts/axis_ticks.hpp"
#include "charts/chart_series.hpp"
#include "check_view.hpp"
#include "main_window.hpp"
#include "overlay.hpp"
#include "pairs_view.hpp"
#include "pf/import.hpp"
#include "pf/pair_row.hpp"
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
        const DrawnSeries* ds = findSeries(d, QString::fromStdString(reports::charts::legendName(s)));
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
          QCOMPARE(ds->values[i].y(), d.y.kind == "log10" ? std::log10(s.points[i].y) : s.points[i].y);
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
      QCOMPARE(s->values.back().y(), std::log10(busbw.points.back().y));  // a log axis: see below
    }
    QCOMPARE(std::count_if(bw.series.begin(), bw.series.end(), [](const auto& s) { return s.inLegend; }),
             2 * static_cast<long>(model.front().series.size()));
    QCOMPARE(bw.x.kind, QString("log2"));
    QVERIFY2(bw.x.labels.contains("1 KiB"), qPrintable(bw.x.labels.join(",")));
    QVERIFY(bw.x.labels.contains("64 B"));
    QCOMPARE(view->chart("sweep.all_reduce.float.sum.time")->describe().y.kind, QString("log10"));
    // Hover shows the model's exact value; a legend click hides the series and a second one shows it.
    ChartView* cv = view->chart("sweep.all_reduce.float.sum.bandwidth");
    const QString name = "sweep: " + QString::fromStdString(busbw.name);
    const QString shown = formatValue(busbw.points.back().y, "GB/s", false, 6);
    QVERIFY2(cv->hoverText(name, busbw.points.back().x).contains(shown), qPrintable(cv->hoverText(name, 1)));
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
    QVERIFY2(hm->toolTipAt(c01).contains(" -> ") && hm->toolTipAt(c01).contains("MB/s"),
             qPrintable(hm->toolTipAt(c01)));
    // Both directions of a pair, each in its own cell: row -> column; the scale in the cells' unit.
    const RunReport doc = readReport(golden("pairs.json").toStdString());
    int checked = 0;
    for (const Json& j : doc.results.front().rows) {
      const PairRow p = pairRowFromJson(j);
      const int a = static_cast<int>(std::find(model.nodes.begin(), model.nodes.end(), p.host_a) - model.nodes.begin());
      const int b = static_cast<int>(std::find(model.nodes.begin(), model.nodes.end(), p.host_b) - model.nodes.begin());
      QCOMPARE(hm->cellText(a, b), plainNumber(p.bw_a_to_b_gbps * 1000, p.bw_a_to_b_gbps >= 0.1 ? 0 : 1));
      QCOMPARE(hm->cellText(b, a), plainNumber(p.bw_b_to_a_gbps * 1000, p.bw_b_to_a_gbps >= 0.1 ? 0 : 1));
      ++checked;
    }
    QCOMPARE(checked, 6);
    QCOMPARE(hm->scaleLabels().front(), QString("0 MB/s"));
    QVERIFY2(hm->scaleLabels().back().endsWith("MB/s expected"), qPrintable(hm->scaleLabels().join(",")));
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

  void axesAreTheModelsFittedAxes() {
    QCOMPARE(formatValue(1500, "us"), QString("1.5 ms"));
    QCOMPARE(formatValue(0.0246, "GB/s"), QString("24.6 MB/s"));
    QCOMPARE(formatValue(2.5e6, "samples/s"), QString("2.5M"));
    // The Qt axes hold the model's ticks at their plotted positions over the model's range: the viewer draws
    // the axes the HTML report draws, log10 wherever the model chose it.
    MainWindow w(false);
    QVERIFY(w.openFiles({golden("capacity.json"), golden("nccl_tests.json")}).isEmpty());
    int checked = 0, log10 = 0;
    for (const char* file : {"capacity.json", "nccl_tests.json"}) {
      for (const auto& chart : reports::charts::chartsFor(readReport(golden(file).toStdString())).charts) {
        const char* tab = chart.id.starts_with("scale.") ? "Scaling" : "Sweeps";
        ChartView* cv = qobject_cast<ChartPanel*>(w.tab(tab))->chart(chart.id);
        QVERIFY2(cv, chart.id.c_str());
        const DrawnChart d = cv->describe();
        for (const auto& [axis, drawn] : {std::pair{&chart.x, &d.x}, std::pair{&chart.y, &d.y}}) {
          QStringList labels;
          for (const auto& t : axis->ticks) labels << QString::fromStdString(t.label);
          QCOMPARE(drawn->labels, labels);
          const AxisMap map{axis->scale};
          QCOMPARE(drawn->min, map.to(axis->lo));
          QCOMPARE(drawn->max, map.to(axis->hi));
          QCOMPARE(drawn->title, QString::fromStdString(reports::charts::axisTitle(*axis)));
          log10 += drawn->kind == "log10";
        }
        ++checked;
      }
    }
    QCOMPARE(checked, 8);
    QVERIFY(log10 >= 2);  // nccl-tests' 8 B to 8 GiB: busbw and time span far more than two decades
  }

  void regressionsAreRedMarkers() {
    // A comparison whose gate flagged two sizes: the compare charts mark exactly those, in red, not joined.
    QTemporaryDir tmp;
    RunReport doc = readReport(golden("compare.json").toStdString());
    doc.results.front().rows[3]["regressed"] = doc.results.front().rows[4]["regressed"] = true;
    const QString path = tmp.filePath("regressed.json");
    writeReport(doc, path.toStdString());
    MainWindow w(false);
    QVERIFY(w.openFiles({path}).isEmpty());
    int marked = 0;
    for (ChartView* cv : qobject_cast<ChartPanel*>(w.tab("Comparison"))->chartViews()) {
      for (const DrawnSeries& s : cv->describe().series) {
        if (!s.name.startsWith("regressed: ")) {
          QVERIFY2(s.color != QColor(reports::charts::kAlarmColor), qPrintable(s.name));  // red is for alarms only
          continue;
        }
        QCOMPARE(s.kind, QString("scatter"));
        QCOMPARE(s.points, 2);
        QCOMPARE(s.color, QColor(reports::charts::kAlarmColor));
        ++marked;
      }
    }
    QCOMPARE(marked, 2);  // the level chart and the change chart
  }

  void everyChartHasReadableTicksAndLegends() {
    // Every chart of every tab: no e-notation among the ticks the Qt axes hold, each legend entry once, none cut.
    MainWindow w(false);
    QVERIFY(w.openFiles({golden("capacity.json"), golden("scale.json"), golden("sweep.json"), golden("sweep_v1.json"),
                         golden("compare.json")})
                .isEmpty());
    const QRegularExpression eNotation("[0-9.]e[+-]?[0-9]");
    int charts = 0;
    for (const char* tab : {"Scaling", "Sweeps", "Comparison"}) {
      auto* panel = qobject_cast<ChartPanel*>(w.tab(tab));
      QVERIFY2(panel, tab);
      panel->showAllBox()->setChecked(true);  // every legend entry listed
      for (ChartView* cv : panel->chartViews()) {
        (void)cv->image(kExportSize);
        const DrawnChart d = cv->describe();
        QVERIFY2(d.x.labels.size() >= 2 && d.y.labels.size() >= 2, qPrintable(d.id));
        for (const QString& l : d.x.labels + d.y.labels)
          QVERIFY2(!eNotation.match(l).hasMatch(), qPrintable(d.id + ": " + l));
        QVERIFY2(cv->clippedLegendEntries().isEmpty(), qPrintable(d.id + ": " + cv->clippedLegendEntries().join(",")));
        const QStringList legend = cv->legendEntries();
        QCOMPARE(QSet<QString>(legend.begin(), legend.end()).size(), legend.size());
        for (const QString& l : legend) QVERIFY2(l.count("predicted") <= 1, qPrintable(l));
        ++charts;
      }
    }
    QVERIFY(charts >= 8);
    // Bandwidth from 8 B to 32 KiB spans more than two decades: a log axis, labelled in MB/s and GB/s.
    const DrawnChart bw =
        qobject_cast<ChartPanel*>(w.tab("Sweeps"))->chart("sweep.all_reduce.float.sum.bandwidth")->describe();
    QCOMPARE(bw.y.kind, QString("log10"));
    QVERIFY2(bw.y.labels.join(",").contains("MB/s"), qPrintable(bw.y.labels.join(",")));
  }

  void stepTimeBarsStandPerFile() {
    // Two scaling runs: one bar per file at each world size, each as tall as that file's own step time parts.
    MainWindow w(false);
    const QStringList files = {golden("capacity.json"), golden("scale.json")};
    QVERIFY(w.openFiles(files).isEmpty());
    const DrawnChart d = qobject_cast<ChartPanel*>(w.tab("Scaling"))->chart("scale.breakdown")->describe();
    for (const QString& file : files) {
      const QString stem = QFileInfo(file).completeBaseName();
      const auto model = reports::charts::chartsFor(readReport(file.toStdString())).charts;
      const auto& parts =
          *std::find_if(model.begin(), model.end(), [](const auto& c) { return c.id == "scale.breakdown"; });
      std::map<double, double> tops;  // bar centre -> its top
      for (const DrawnSeries& s : d.series) {
        if (!s.name.startsWith(stem + ": ")) continue;
        QCOMPARE(s.kind, QString("area"));
        for (size_t k = 0; k + 3 < s.values.size(); k += 4) {
          const double centre = (s.values[k].x() + s.values[k + 2].x()) / 2;
          tops[centre] = std::max(tops[centre], s.values[k + 1].y());
        }
      }
      QCOMPARE(tops.size(), parts.series.front().points.size());  // one bar per world size, not one per segment
      size_t i = 0;
      for (const auto& [centre, top] : tops) {
        double total = 0;
        for (const auto& seg : parts.series) total += seg.points[i].y;
        QCOMPARE(top, total);
        // Centred beside the world size, never on the other file's bar.
        QVERIFY(std::abs(centre - std::log2(parts.series.front().points[i].x)) < 0.5);
        for (const DrawnSeries& s : d.series)
          if (!s.name.startsWith(stem + ": "))
            for (size_t k = 0; k + 3 < s.values.size(); k += 4)
              QVERIFY(centre < s.values[k].x() || centre > s.values[k + 2].x());
        ++i;
      }
    }
  }

  void oneLinePerRunAndMeasureByDefault() {
    // The main charts hold one line per file (busbw, out-of-place); the model's secondary charts (algbw,
    // in-place, p50) are folded away until the check box shows them.
    MainWindow w(false);
    QVERIFY(w.openFiles({golden("sweep.json"), golden("sweep_v1.json")}).isEmpty());
    auto* panel = qobject_cast<ChartPanel*>(w.tab("Sweeps"));
    QVERIFY(panel && !panel->showAllBox()->isHidden() && !panel->showAllBox()->isChecked());
    ChartView* cv = panel->chart("sweep.all_reduce.float.sum.bandwidth");
    ChartView* more = panel->chart("sweep.all_reduce.float.sum.bandwidth.more");
    QVERIFY(cv && more && !cv->isSecondary() && more->isSecondary());
    QStringList lines;
    for (const DrawnSeries& s : cv->describe().series)
      if (s.visible && s.inLegend && s.kind != "area") lines << s.name;
    QCOMPARE(lines, QStringList({"sweep: busbw out-of-place", "sweep_v1: busbw out-of-place"}));
    QVERIFY(cv->isVisibleTo(panel) && !more->isVisibleTo(panel));
    QVERIFY(more->legendEntries().contains("sweep: algbw in-place"));
    for (bool all : {true, false}) {
      panel->showAllBox()->setChecked(all);
      QCOMPARE(more->isVisibleTo(panel), all);
    }
  }

  void exportPngWritesNonBlankImages() {
    QTemporaryDir tmp;
    QString errText;
    QTextStream err(&errText);
    QCOMPARE(exportPngs(tmp.path(), {golden("sweep.json"), golden("capacity.json")}, err), 0);
    const QStringList files = QDir(tmp.path()).entryList({"*.png"});
    QCOMPARE(files.size(), 8);  // the sweep's 4 charts (2 main, 2 secondary) and the scaling run's 4
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

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The viewer on a `preflight history` document (history/history_report.hpp): its history.bandwidth rows become
// the History tab's chart, one line per node, at the runs it was measured in.
#include <QTemporaryDir>
#include <QtTest>

#include "chart_panel.hpp"
#include "main_window.hpp"
#include "pf/report_io.hpp"

using namespace pf;
using namespace pf::gui;

class HistoryViewTest : public QObject {
  Q_OBJECT

 private slots:
  void historyTabDrawsEachNodesBandwidthByRun() {
    QTemporaryDir tmp;
    RunReport doc;
    doc.context.command = "history";
    Result bw;
    bw.key = "history.bandwidth";
    bw.kind = Kind::kCheck;
    for (int run = 1; run <= 3; ++run)
      for (const std::string host : {"node0", "node1"})
        bw.rows.push_back({{"run", run},
                           {"started", "2026-12-02T05:00:00Z"},
                           {"host", host},
                           {"verdict", "pass"},
                           {"pair_median_gbps", host == "node0" ? 10.0 * run : 5.0},
                           {"allreduce_busbw_gbps", nullptr}});
    doc.results.push_back(bw);
    const QString path = tmp.filePath("history.json");
    writeReport(doc, path.toStdString());
    MainWindow w(false);
    QVERIFY(w.openFiles({path}).isEmpty());
    auto* panel = qobject_cast<ChartPanel*>(w.tab("History"));
    QVERIFY(panel);
    QCOMPARE(static_cast<int>(panel->chartViews().size()), 1);  // no all-reduce figures: no second chart
    const DrawnChart c = panel->chartViews().front()->describe();
    QCOMPARE(static_cast<int>(c.series.size()), 2);
    QCOMPARE(c.series[0].name, QString("node0"));
    QCOMPARE(c.series[1].name, QString("node1"));
    QCOMPARE(c.series[0].points, 3);
    QCOMPARE(c.series[0].values.back(), QPointF(3, 30));
  }
};

QTEST_MAIN(HistoryViewTest)
#include "history_view_test.moc"

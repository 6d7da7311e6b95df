// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The history's questions on constructed runs: nodes that failed k of their last n checks, the first run a figure
// fell below its earlier median, and the history document and its terminal view built from them.
#include "history_queries.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "charts/chart_model.hpp"
#include "charts/history_charts.hpp"
#include "history_fixtures.hpp"
#include "history_report.hpp"
#include "pf/error.hpp"
#include "reporter.hpp"

namespace pf::history {
namespace {

using ::testing::HasSubstr;
using testing::run;
constexpr Status P = Status::kPass, F = Status::kFail, W = Status::kWarn;

// n1 alternates, n2 always passes, n3 failed only in the first run, n4 errored twice in its three checks.
std::vector<RunRecord> alternating() {
  std::vector<RunRecord> runs;
  const Status n1[] = {P, F, P, F, P, F};
  const Status n3[] = {F, P, P, P, P, W};
  for (int i = 0; i < 6; ++i) {
    std::vector<std::pair<std::string, Status>> v = {{"n1", n1[i]}, {"n2", P}, {"n3", n3[i]}};
    if (i >= 3) v.push_back({"n4", i == 4 ? P : Status::kError});
    runs.push_back(run(i + 1, v));
  }
  return runs;
}

TEST(HistoryQueries, FlappingNodesCountFailuresInTheirLastNChecks) {
  const auto flapping = flappingNodes(alternating(), 2, 5);
  ASSERT_EQ(flapping.size(), 2u);
  EXPECT_EQ(flapping[0].host, "n1");
  EXPECT_EQ(flapping[0].failed, 3);
  EXPECT_EQ(flapping[0].checks, 5);
  EXPECT_EQ(flapping[0].pattern, "FPFPF");
  EXPECT_EQ(flapping[0].failedRuns, (std::vector<int64_t>{2, 4, 6}));
  EXPECT_EQ(flapping[1].host, "n4");  // fewer checks than n: all of them count
  EXPECT_EQ(flapping[1].checks, 3);
  EXPECT_EQ(flapping[1].pattern, "EPE");
  // n3's one failure fell out of its last 5; a warning is no failure.
  EXPECT_EQ(flappingNodes(alternating(), 1, 5).size(), 2u);
  EXPECT_EQ(flappingNodes(alternating(), 1, 6).size(), 3u);
  EXPECT_EQ(flappingNodes(alternating(), 3, 5).size(), 1u);
  EXPECT_EQ(flappingNodes(alternating(), 4, 5).size(), 0u);
}

TEST(HistoryQueries, RegressionsAreFirstSeenAgainstTheEarlierMedian) {
  std::vector<RunRecord> runs;
  const double a[] = {10, 10, 11, 10, 7, 6};
  const double b[] = {20, 21, 19, 20, 20, 20};
  for (int i = 0; i < 6; ++i) {
    runs.push_back(run(i + 1, {{"a", P}, {"b", P}}, {a[i], b[i]}));
    PairRecord p{i % 2 ? "b" : "a", i % 2 ? "a" : "b", 9, i == 3 ? 4.0 : 9.5, 3};  // named both ways
    runs.back().pairs.push_back(p);
  }
  const auto found = regressions(runs, 20, 3);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].host, "a");
  EXPECT_EQ(found[0].peer, "");
  EXPECT_EQ(found[0].figure, "pair median bandwidth");
  EXPECT_EQ(found[0].run, 5);  // 7 < 0.8 x median(10, 10, 11, 10)
  EXPECT_EQ(found[0].started, "2026-12-05T00:00:00Z");
  EXPECT_DOUBLE_EQ(found[0].valueGbps, 7);
  EXPECT_DOUBLE_EQ(found[0].earlierMedianGbps, 10);
  EXPECT_DOUBLE_EQ(found[0].dropPercent, 30);
  EXPECT_EQ(found[0].earlierRuns, 4);
  EXPECT_DOUBLE_EQ(found[0].latestGbps, 6);
  EXPECT_TRUE(found[0].stillBelow);
  EXPECT_EQ(found[1].host, "a");
  EXPECT_EQ(found[1].peer, "b");
  EXPECT_EQ(found[1].figure, "pair bandwidth");
  EXPECT_EQ(found[1].run, 4);  // the slower direction, 4 < 0.8 x 9
  EXPECT_DOUBLE_EQ(found[1].latestGbps, 9);
  EXPECT_FALSE(found[1].stillBelow);  // it recovered
  // A drop seen before 3 earlier figures is not judged; a larger threshold lets a's 30% through.
  const auto later = regressions(runs, 20, 5);
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0].run, 6);  // 6 < 0.8 x median(10, 10, 11, 10, 7); the pair's 4 had 3 earlier figures only
  EXPECT_EQ(regressions(runs, 45, 3).size(), 1u);  // only the pair's 55.6% drop
}

TEST(HistoryReport, DocumentAndTerminalView) {
  std::vector<RunRecord> runs = alternating();
  HistoryOptions o;
  o.lastRuns = 2;
  const RunReport doc = historyReport(runs, o);
  ASSERT_EQ(doc.results.size(), 4u);
  EXPECT_EQ(doc.context.command, "history");
  EXPECT_EQ(doc.context.node_count, 4);
  EXPECT_EQ(doc.results[0].key, "history.runs");
  EXPECT_EQ(doc.results[1].params["hosts"], Json::array({"n1", "n4"}));
  EXPECT_EQ(doc.results[0].rows.size(), 2u);
  EXPECT_EQ(doc.results[0].rows[0]["run"], 5);
  EXPECT_EQ(doc.results[0].message, "6 runs from 2026-12-01T00:00:00Z to 2026-12-06T00:00:00Z (the last 2 listed)");
  EXPECT_EQ(doc.results[1].status, Status::kWarn);
  EXPECT_EQ(doc.results[1].message, "2 nodes failed at least 2 of their last 5 checks: n1, n4");
  EXPECT_EQ(doc.results[2].status, Status::kPass);
  EXPECT_EQ(doc.results[3].rows.size(), 21u);  // every node's figures, run by run

  const std::string text = reports::renderDocument("table", doc);
  EXPECT_THAT(text, HasSubstr("  n1                            3      5  FPFPF\n"));
  EXPECT_THAT(text, HasSubstr("  n4                            2      3  EPE\n"));
  EXPECT_THAT(text, HasSubstr("warn    history.flapping             2 nodes failed at least 2 of their last 5 "
                              "checks: n1, n4\n"));

  o.node = "n3";
  runs[0].findings.push_back({"n3", "check.probe.profile", F, "n3: GPUs: count 7, the profile wants at least 8", ""});
  runs[1].findings.push_back({"n1,n3", "check.pairs.link", W, "n1-n3: 40% of expected", ""});
  runs[1].findings.push_back({"n33", "check.probe.gpu", W, "n33: not n3", ""});
  const RunReport one = historyReport(runs, o);
  ASSERT_EQ(one.results.size(), 5u);
  EXPECT_EQ(one.results[4].key, "history.node_findings");
  ASSERT_EQ(one.results[4].rows.size(), 2u);  // its own and its link's, not n33's
  EXPECT_EQ(one.results[4].rows[1]["hosts"], "n1,n3");
  EXPECT_THAT(
      reports::renderDocument("table", one),
      HasSubstr("    2  2026-12-02T00:00:00Z     warn    check.pairs.link             n1-n3: 40% of expected\n"));
  EXPECT_EQ(one.results[3].rows.size(), 6u);
  EXPECT_EQ(one.results[3].rows[5]["verdict"], "warn");
  o.node = "n9";
  EXPECT_THROW((void)historyReport(runs, o), UsageError);
}

TEST(HistoryReport, ChartOfEachNodesBandwidthByRun) {
  std::vector<RunRecord> runs;
  for (int i = 0; i < 3; ++i) runs.push_back(run(i + 1, {{"a", P}, {"b", P}}, {10.0 + i, std::nullopt}));
  const RunReport doc = historyReport(runs, {});
  const auto charts = reports::charts::chartsFor(doc).charts;
  ASSERT_EQ(charts.size(), 1u);  // no all-reduce figures: no second chart
  EXPECT_EQ(charts[0].id, "history.pair_median");
  ASSERT_EQ(charts[0].series.size(), 1u);  // b has no pair figure
  EXPECT_EQ(charts[0].series[0].name, "a");
  ASSERT_EQ(charts[0].series[0].points.size(), 3u);
  EXPECT_DOUBLE_EQ(charts[0].series[0].points[2].x, 3);
  EXPECT_DOUBLE_EQ(charts[0].series[0].points[2].y, 12);
  EXPECT_TRUE(charts[0].y.fitted());
  std::vector<double> ticks;
  for (const auto& t : charts[0].x.ticks) ticks.push_back(t.value);
  EXPECT_EQ(ticks, (std::vector<double>{1, 2, 3}));  // whole runs only
}

}  // namespace
}  // namespace pf::history

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The chart model derives every point from the document: each value is checked against the row it came from.
#include "charts/chart_model.hpp"

#include <gtest/gtest.h>

#include "pf/pair_row.hpp"
#include "pf/report_io.hpp"
#include "pf/sweep_row.hpp"

namespace pf::reports::charts {
namespace {

Result sweep() {
  Result r;
  r.key = "sweep.all_reduce";
  r.kind = Kind::kSweep;
  SweepParams p;
  p.collective = "all_reduce";
  r.params = toJson(p);
  for (uint64_t size : {1024ull, 4096ull}) {
    for (const char* placement : {"out", "in"}) {
      SweepRow row;
      row.collective = "all_reduce";
      row.size_bytes = size;
      row.count = size / 4;
      row.dtype = "float";
      row.op = "sum";
      row.placement = placement;
      row.time_us = 10;
      row.algbw_gbps = static_cast<double>(size) / 10e3;
      row.busbw_gbps = 1.5 * row.algbw_gbps;
      row.iter_min_us = 8;
      row.iter_p50_us = 10;
      row.iter_max_us = 20;
      r.rows.push_back(toJson(row));
    }
  }
  return r;
}

TEST(ChartModel, SweepSeriesAreTheRowsValues) {
  auto charts = sweepCharts(sweep());
  ASSERT_EQ(charts.size(), 4u);  // busbw and time out-of-place, then the secondary bandwidth and time charts
  const Chart& bw = charts[0];
  EXPECT_EQ(bw.id, "sweep.all_reduce.float.sum.bandwidth");
  EXPECT_EQ(bw.x.scale, Scale::kLog2);
  EXPECT_TRUE(bw.x.binarySuffix);
  EXPECT_FALSE(bw.secondary);
  ASSERT_EQ(bw.series.size(), 1u);  // one line per run and measure: busbw out-of-place
  const Series& busbw = bw.series[0];
  EXPECT_EQ(busbw.name, "busbw out-of-place");
  ASSERT_EQ(busbw.points.size(), 2u);
  EXPECT_DOUBLE_EQ(busbw.points[1].x, 4096);
  EXPECT_DOUBLE_EQ(busbw.points[1].y, 1.5 * 4096 / 10e3);
  // Error bars from per-iteration times: busbw x time / t, the fastest iteration the highest bandwidth.
  EXPECT_DOUBLE_EQ(*busbw.points[0].high, busbw.points[0].y * 10 / 8);
  EXPECT_DOUBLE_EQ(*busbw.points[0].low, busbw.points[0].y * 10 / 20);
  EXPECT_EQ(charts[1].id, "sweep.all_reduce.float.sum.time");
  EXPECT_EQ(charts[1].y.scale, Scale::kLog10);
  EXPECT_DOUBLE_EQ(*charts[1].series[0].points[0].high, 20);
  // The rest, named once each, in a secondary chart.
  EXPECT_TRUE(charts[2].secondary);
  std::vector<std::string> names;
  for (const Series& s : charts[2].series) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"busbw in-place", "algbw out-of-place", "algbw in-place",
                                             "busbw p50 out-of-place", "busbw p50 in-place"}));
  EXPECT_EQ(charts[3].series.at(0).name, "time in-place");
}

TEST(ChartModel, SweepsOfOneCollectiveAreOverlaidOneLinePerRun) {
  Result a = sweep(), b = sweep();
  b.key = "sweep.all_reduce.f2";
  RunReport report;
  report.results = {a, b};
  const ChartSet set = chartsFor(report);
  ASSERT_EQ(set.charts.size(), 4u);
  ASSERT_EQ(set.charts[0].series.size(), 2u);
  EXPECT_EQ(set.charts[0].series[0].name, "sweep.all_reduce: busbw out-of-place");
  EXPECT_EQ(set.charts[0].series[1].name, "sweep.all_reduce.f2: busbw out-of-place");
}

TEST(ChartModel, SeveralPassesDrawTheMedianPass) {
  Result r = sweep();
  SweepParams p = sweepParamsFromJson(r.params);
  p.cycles = 3;
  r.params = toJson(p);
  // Passes 2 and 3: the same sizes 2x and 4x slower; the median pass is the 2x one.
  const std::vector<Json> first = r.rows;
  for (int cycle : {2, 3})
    for (const Json& j : first) {
      SweepRow row = sweepRowFromJson(j);
      const double f = cycle == 2 ? 4 : 2;
      row.time_us *= f;
      row.algbw_gbps /= f;
      row.busbw_gbps /= f;
      row.cycle = cycle;
      r.rows.push_back(toJson(row));
    }
  auto charts = sweepCharts(r);
  const Series& busbw = charts.at(0).series.at(0);
  EXPECT_EQ(busbw.name, "busbw out-of-place, median of 3 passes");
  ASSERT_EQ(busbw.points.size(), 2u);  // one point per size, not per row
  EXPECT_DOUBLE_EQ(busbw.points[1].x, 4096);
  EXPECT_DOUBLE_EQ(busbw.points[1].y, 1.5 * 4096 / 10e3 / 2);
}

TEST(ChartModel, ScaleChartsMarkPredictionsAndIdeals) {
  Result r;
  r.kind = Kind::kScale;
  for (int n : {1, 2, 4}) {
    const double e = n == 1 ? 1.0 : 0.9;
    r.rows.push_back({{"ranks", n},
                      {"throughput_sps", {{"median", 100.0 * n * e}, {"min", 90.0 * n * e}, {"max", 110.0 * n * e}}},
                      {"efficiency", {{"median", e}, {"min", e - 0.05}, {"max", e + 0.05}}},
                      {"step_us_p50", 1000.0 / e},
                      {"compute_us", 800.0},
                      {"exposed_comm_us", 150.0},
                      {"rest_us", 50.0}});
  }
  r.metrics["predictions"] = Json::array({{{"ranks", 64}, {"step_us", 1400.0}, {"efficiency", 0.7}}});
  auto charts = scaleCharts(r);
  ASSERT_EQ(charts.size(), 4u);
  const Chart& eff = charts[0];
  EXPECT_EQ(eff.x.scale, Scale::kLog2);
  EXPECT_DOUBLE_EQ(*eff.series[0].points[2].low, 0.85);  // error bars from the spread
  const Series& ideal = eff.series[1];
  EXPECT_EQ(ideal.style, Style::kIdeal);
  EXPECT_DOUBLE_EQ(ideal.points.back().x, 64);  // out to the largest predicted size
  EXPECT_DOUBLE_EQ(ideal.points.back().y, 1);
  EXPECT_TRUE(eff.series[2].predicted);
  EXPECT_DOUBLE_EQ(eff.series[2].points[0].y, 0.7);
  EXPECT_DOUBLE_EQ(charts[1].series[1].points.back().y, 100.0 * 64);  // linear ideal from N0 = 1
  const Chart& parts = charts[3];
  ASSERT_EQ(parts.series.size(), 3u);
  EXPECT_EQ(parts.series[1].name, "exposed communication");
  EXPECT_DOUBLE_EQ(parts.series[1].points[0].y, 150);
}

TEST(ChartModel, PairHeatmapIsSymmetricAndNamesFailures) {
  Result r;
  r.kind = Kind::kPairs;
  auto pair = [&](int a, int b, double pct, Status s) {
    PairRow row;
    row.node_a = a;
    row.node_b = b;
    row.host_a = "node" + std::to_string(a);
    row.host_b = "node" + std::to_string(b);
    row.pct_of_expected = pct;
    row.status = s;
    row.reason = s == Status::kPass ? "" : "slow";
    r.rows.push_back(toJson(row));
  };
  pair(0, 1, 100, Status::kPass);
  pair(0, 2, 5, Status::kFail);
  pair(1, 2, 5, Status::kFail);
  Heatmap h = pairHeatmap(r);
  ASSERT_EQ(h.nodes, (std::vector<std::string>{"node0", "node1", "node2"}));
  EXPECT_DOUBLE_EQ(*h.cells[2][0], 5);
  EXPECT_DOUBLE_EQ(*h.cells[0][2], 5);
  EXPECT_FALSE(h.cells[1][1].has_value());  // no pair with itself
  ASSERT_EQ(h.failing.size(), 2u);
  EXPECT_EQ(h.failing[0], "fail node0-node2: slow");
}

TEST(ChartModel, PairHeatmapKeepsBothDirectionsInGBps) {
  Result r;
  r.kind = Kind::kPairs;
  PairRow row;
  row.node_a = 0;
  row.node_b = 1;
  row.host_a = "a";
  row.host_b = "b";
  row.bw_a_to_b_gbps = 6.46;
  row.bw_b_to_a_gbps = 3.37;
  row.expected_gbps = 5;
  r.rows.push_back(toJson(row));
  const Heatmap h = pairHeatmap(r);
  EXPECT_DOUBLE_EQ(*h.gbps[0][1], 6.46);  // row = sender
  EXPECT_DOUBLE_EQ(*h.gbps[1][0], 3.37);
  EXPECT_DOUBLE_EQ(h.scale_max_gbps, 5);
}

// check --rails: one row per rail for each pair. A slow rail between two healthy ones must show in the cell,
// whatever the order of the rows, and the failing list names it.
TEST(ChartModel, PairHeatmapShowsTheSlowestRailOfAPair) {
  Result r;
  r.kind = Kind::kPairs;
  auto rail = [&](int k, double out, double in, double pct, Status s) {
    PairRow row;
    row.node_a = 0;
    row.node_b = 1;
    row.host_a = "node0";
    row.host_b = "node3";
    row.rail = k;
    row.nic_a = row.nic_b = "rail" + std::to_string(k);
    row.bw_a_to_b_gbps = out;
    row.bw_b_to_a_gbps = in;
    row.pct_of_expected = pct;
    row.expected_gbps = 1.5;
    row.status = s;
    row.reason = s == Status::kPass ? "" : "slow";
    r.rows.push_back(toJson(row));
  };
  rail(0, 1.5, 1.4, 93, Status::kPass);
  rail(1, 0.025, 0.024, 2, Status::kFail);
  rail(2, 1.6, 1.5, 100, Status::kPass);
  const Heatmap h = pairHeatmap(r);
  EXPECT_DOUBLE_EQ(*h.gbps[0][1], 0.025);
  EXPECT_DOUBLE_EQ(*h.gbps[1][0], 0.024);
  EXPECT_DOUBLE_EQ(*h.cells[0][1], 2);
  EXPECT_EQ(h.rails, 3);
  ASSERT_EQ(h.failing.size(), 1u);
  EXPECT_EQ(h.failing[0], "fail node0-node3 rail 1 (rail1, rail1): slow");
}

Axis fitted(Axis a, std::vector<double> ys, bool stacked = false) {
  Chart c{"t", "t", {"world size", "ranks", Scale::kLog2, false}, std::move(a), {}};
  Series s{"s", stacked ? Style::kStacked : Style::kMarkers, false, {}};
  for (double y : ys) s.points.push_back({s.points.size() + 1.0, y, {}, {}});
  c.series.push_back(s);
  fitAxes(c);
  return c.y;
}

std::vector<std::string> labels(const Axis& a) {
  std::vector<std::string> out;
  for (const Tick& t : a.ticks) out.push_back(t.label);
  return out;
}

using Labels = std::vector<std::string>;

TEST(Ticks, SiScaledLabelsNeverInENotation) {
  const Axis thr = fitted({"throughput", "samples/s"}, {1e6, 2e6});
  EXPECT_EQ(thr.scale, Scale::kLinear);
  EXPECT_EQ(labels(thr), (Labels{"0", "0.5M", "1M", "1.5M", "2M"}));
  EXPECT_EQ(labels(fitted({"step time", "us"}, {9360, 30000})),
            (Labels{"0", "5 ms", "10 ms", "15 ms", "20 ms", "25 ms", "30 ms"}));
  EXPECT_EQ(labels(fitted({"bw", "GB/s"}, {0.4, 5.3})),
            (Labels{"0", "1 GB/s", "2 GB/s", "3 GB/s", "4 GB/s", "5 GB/s", "6 GB/s"}));
  EXPECT_EQ(labels(fitted({"bw", "GB/s"}, {0.05, 0.34})),
            (Labels{"0", "50 MB/s", "100 MB/s", "150 MB/s", "200 MB/s", "250 MB/s", "300 MB/s", "350 MB/s"}));
  EXPECT_EQ(axisTitle({"bus bandwidth", "GB/s"}), "bus bandwidth");  // the ticks carry the unit
  EXPECT_EQ(axisTitle({"throughput", "samples/s"}), "throughput (samples/s)");
  EXPECT_EQ(labels(fitted({"time", "us", Scale::kLog10}, {20, 200})), (Labels{"20 us", "50 us", "100 us", "200 us"}));
  EXPECT_EQ(plainNumber(-0.0), "0");
  EXPECT_EQ(plainNumber(1234567), "1234567");
  EXPECT_EQ(plainNumber(0.000123), "0.000123");
  EXPECT_EQ(tickLabel(3e4, {"t", "us"}), "30 ms");
  EXPECT_EQ(tickLabel(1.5 * 1024 * 1024, {"size", "bytes", Scale::kLog2, true}), "1.5 MiB");
}

TEST(Ticks, ChangesAroundZeroHaveNoMinusZero) {
  const Axis change = fitted({"change", "%"}, {-76, 78});
  EXPECT_EQ(labels(change), (Labels{"-100", "-50", "0", "50", "100"}));
  EXPECT_EQ(labels(fitted({"change", "%"}, {-0.0, 100})), (Labels{"0", "20", "40", "60", "80", "100"}));
  // Nothing improved: the changes end at 0, which gets a step of room above so its markers are not cut.
  EXPECT_EQ(labels(fitted({"change", "%"}, {-28, 0})), (Labels{"-30", "-25", "-20", "-15", "-10", "-5", "0", "5"}));
}

TEST(Ticks, LogAxisPastTwentyTimes) {
  const Axis bw = fitted({"bw", "GB/s"}, {0.001, 10});  // 10,000x: the small sizes must not sit on zero
  EXPECT_EQ(bw.scale, Scale::kLog10);
  EXPECT_EQ(labels(bw), (Labels{"1 MB/s", "10 MB/s", "100 MB/s", "1 GB/s", "10 GB/s"}));
  EXPECT_EQ(labels(fitted({"bw", "GB/s"}, {1e-5, 0.1})).front(), "10 kB/s");
  EXPECT_EQ(labels(fitted({"bw", "GB/s"}, {1e-7, 10})).front(), "100 B/s");  // not "0.1 kB/s"
  EXPECT_EQ(fitted({"bw", "GB/s"}, {1, 19}).scale, Scale::kLinear);          // 19x stays linear
  // A capacity plan: measured 256k and 452k samples/s under predictions up to 17.5M (68x) must not sit on zero.
  EXPECT_EQ(fitted({"thr", "samples/s"}, {2.56e5, 1.75e7}).scale, Scale::kLog10);
  EXPECT_EQ(fitted({"t", "us"}, {100, 30000}, true).scale, Scale::kLinear);  // stacked bars need a zero base
  EXPECT_EQ(labels(fitted({"thr", "samples/s"}, {1e4, 6.4e6})), (Labels{"10k", "100k", "1M", "10M"}));
  // World sizes 1 and 2 still get 4 ticks; sizes 8 B .. 32 KiB every second power of two.
  Chart c{"t", "t", {"world size", "ranks", Scale::kLog2, false}, {"bw", "GB/s"}, {}};
  c.series.push_back({"s", Style::kLine, false, {{1, 1, {}, {}}, {2, 2, {}, {}}}});
  fitAxes(c);
  EXPECT_EQ(labels(c.x), (Labels{"1", "2", "4", "8"}));
  Chart sizes{"t", "t", {"size", "bytes", Scale::kLog2, true}, {"bw", "GB/s"}, {}};
  sizes.series.push_back({"s", Style::kLine, false, {{8, 1, {}, {}}, {32768, 2, {}, {}}}});
  fitAxes(sizes);
  EXPECT_EQ(labels(sizes.x), (Labels{"4 B", "16 B", "64 B", "256 B", "1 KiB", "4 KiB", "16 KiB", "64 KiB"}));
}

TEST(Ticks, LegendNamesSayPredictedOnce) {
  EXPECT_EQ(legendName({"E(N) predicted", Style::kLine, true, {}}), "E(N) predicted");
  EXPECT_EQ(legendName({"E(N)", Style::kLine, true, {}}), "E(N) (predicted)");
  EXPECT_EQ(legendName({"E(N) measured", Style::kLine, false, {}}), "E(N) measured");
}

TEST(ChartModel, Log2TicksAndBinaryLabels) {
  EXPECT_EQ(log2Ticks(8, 1024), (std::vector<double>{8, 16, 32, 64, 128, 256, 512, 1024}));
  auto wide = log2Ticks(8, 8.0 * (1ull << 30), 12);  // 8 B .. 8 GiB: every third power
  EXPECT_LE(wide.size(), 12u);
  EXPECT_DOUBLE_EQ(wide[0], 8);
  EXPECT_DOUBLE_EQ(wide[1], 64);
  EXPECT_TRUE(log2Ticks(0, 10).empty());
  EXPECT_EQ(binarySize(8), "8 B");
  EXPECT_EQ(binarySize(1024), "1 KiB");
  EXPECT_EQ(binarySize(32 << 20), "32 MiB");
  EXPECT_EQ(binarySize(1.5 * (1 << 20)), "1.5 MiB");
}

TEST(ChartModel, DocumentsWithoutChartableResultsGiveNone) {
  RunReport report;
  Result probe;
  probe.kind = Kind::kProbe;
  report.results.push_back(probe);
  ChartSet set = chartsFor(report);
  EXPECT_TRUE(set.charts.empty());
  EXPECT_TRUE(set.heatmaps.empty());
}

TEST(ChartModel, RealRunsFromTheGoldenDocuments) {
  // The pairs run of tests/golden/documents: 4 simulated nodes with node2's link slowed to 200 Mbit/s.
  const RunReport pairs = readReport(std::string(PF_GOLDEN_DIR) + "/documents/pairs.json");
  ChartSet set = chartsFor(pairs);
  ASSERT_EQ(set.heatmaps.size(), 1u);
  const Heatmap& h = set.heatmaps[0];
  EXPECT_EQ(h.nodes.size(), 4u);
  ASSERT_FALSE(h.failing.empty());
  for (const std::string& f : h.failing) EXPECT_NE(f.find("node2"), std::string::npos) << f;
  // The sweep run: one bandwidth and one time chart, a point per measured row and placement.
  const RunReport sweep = readReport(std::string(PF_GOLDEN_DIR) + "/documents/sweep.json");
  set = chartsFor(sweep);
  ASSERT_EQ(set.charts.size(), 4u);
  EXPECT_EQ(set.charts[0].series[0].points.size() * 2, sweep.results[0].rows.size());
  for (const Chart& c : set.charts)
    for (const Axis* a : {&c.x, &c.y}) {
      EXPECT_GE(a->ticks.size(), 4u) << c.id;
      EXPECT_LE(a->ticks.size(), 8u) << c.id;
    }
}

}  // namespace
}  // namespace pf::reports::charts

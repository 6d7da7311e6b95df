// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight compare`'s rules on documents: a real sweep of this machine against itself, with a planted
// regression, against noise, and the pair, scale and status rules on small made-up documents.
#include "compare/compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "charts/chart_model.hpp"
#include "pf/pair_row.hpp"
#include "pf/report_io.hpp"
#include "pf/sweep_row.hpp"
#include "pf/verdict.hpp"

namespace pf::reports::compare {
namespace {

RunReport goldenSweep() { return readReport(std::string(PF_GOLDEN_DIR) + "/documents/sweep.json"); }

/// Every timing field of both halves at `size` times `factor`, bandwidths divided by it (nccl-tests' formulas).
void slowDown(RunReport& doc, uint64_t size, double factor) {
  for (Json& j : doc.results.at(0).rows) {
    if (j.at("size_bytes").get<uint64_t>() != size) continue;
    for (const char* k : {"time_us", "iter_min_us", "iter_p50_us", "iter_p99_us", "iter_max_us"})
      if (j.contains(k) && j.at(k).is_number()) j[k] = j.at(k).get<double>() * factor;
    j["algbw_gbps"] = j.at("algbw_gbps").get<double>() / factor;
    j["busbw_gbps"] = j.at("busbw_gbps").get<double>() / factor;
  }
}

std::vector<ComparisonRow> rowsOf(const Result& r) {
  std::vector<ComparisonRow> out;
  for (const Json& j : r.rows) out.push_back(comparisonRowFromJson(j));
  return out;
}

TEST(Compare, IdenticalRunsChangeNothing) {
  const RunReport base = goldenSweep();
  RunReport doc = compareDocuments({"a.json", base}, {{"b.json", base}}, {});
  applyVerdict(doc, false);
  EXPECT_EQ(doc.exit_code, 0);
  ASSERT_EQ(doc.results.size(), 1u);
  for (const ComparisonRow& r : rowsOf(doc.results[0])) {
    EXPECT_EQ(r.change_pct, 0);
    EXPECT_FALSE(r.regressed);
  }
}

TEST(Compare, PlantedRegressionAtTheLargestSizeIsFlaggedAlone) {
  const RunReport base = goldenSweep();
  RunReport next = base;
  const uint64_t largest = 32768;  // the document's largest size, bandwidth-bound on its own curve
  slowDown(next, largest, 1.25);   // busbw -20%
  RunReport doc = compareDocuments({"a.json", base}, {{"b.json", next}}, {});
  applyVerdict(doc, false);
  EXPECT_EQ(doc.exit_code, 1);
  int flagged = 0;
  for (const ComparisonRow& r : rowsOf(doc.results[0])) {
    if (!r.regressed) continue;
    ++flagged;
    EXPECT_EQ(r.x, largest);
    EXPECT_EQ(r.metric, "busbw_gbps");
    EXPECT_NEAR(r.change_pct, -20, 1e-9);
    ASSERT_TRUE(r.base_busbw_gbps && r.new_busbw_gbps);
    EXPECT_NEAR(*r.new_busbw_gbps / *r.base_busbw_gbps, 0.8, 1e-12);
  }
  EXPECT_EQ(flagged, 1);
  EXPECT_NE(doc.results[0].message.find("32 KiB"), std::string::npos) << doc.results[0].message;
}

// Two passes per run (-N 2): the second pass a copy of the first, which `adjust` may change.
RunReport twoPasses(const RunReport& one, uint64_t size, double secondPassFactor) {
  RunReport doc = one;
  Result& r = doc.results.at(0);
  SweepParams p = sweepParamsFromJson(r.params);
  p.cycles = 2;
  r.params = toJson(p);
  RunReport second = one;
  slowDown(second, size, secondPassFactor);
  for (Json& j : r.rows) j["cycle"] = 1;
  for (Json j : second.results.at(0).rows) {
    j["cycle"] = 2;
    r.rows.push_back(j);
  }
  return doc;
}

TEST(Compare, OneSlowPassIsNotARegressionButEverySlowPassIs) {
  const RunReport base = twoPasses(goldenSweep(), 32768, 1.0);
  // Interference in one pass of NEW: that size 3x slower in pass 2 only.
  RunReport doc = compareDocuments({"a.json", base}, {{"b.json", twoPasses(goldenSweep(), 32768, 3.0)}}, {});
  applyVerdict(doc, false);
  EXPECT_EQ(doc.exit_code, 0) << doc.results[0].message;
  EXPECT_NE(doc.results[0].params.dump().find("fastest of 2 passes"), std::string::npos)
      << doc.results[0].params.dump();
  // A real regression: slower in both passes.
  RunReport slow = goldenSweep();
  slowDown(slow, 32768, 1.25);
  doc = compareDocuments({"a.json", base}, {{"b.json", twoPasses(slow, 32768, 1.0)}}, {});
  applyVerdict(doc, false);
  EXPECT_EQ(doc.exit_code, 1);
  int flagged = 0;
  for (const ComparisonRow& r : rowsOf(doc.results[0])) flagged += r.regressed ? 1 : 0;
  EXPECT_EQ(flagged, 1);
}

TEST(Compare, WrongElementsInNewFailEvenWhenFaster) {
  const RunReport base = goldenSweep();
  RunReport next = base;
  slowDown(next, 32768, 0.5);
  next.results[0].status = Status::kFail;  // as the sweep sets it when an element was wrong
  RunReport doc = compareDocuments({"a.json", base}, {{"b.json", next}}, {});
  applyVerdict(doc, false);
  ASSERT_EQ(doc.results.size(), 2u);
  EXPECT_EQ(doc.results[0].status, Status::kPass);  // the figures improved
  EXPECT_EQ(doc.results[1].status, Status::kFail);  // the verdict did not
  EXPECT_EQ(doc.exit_code, 1);
}

TEST(Compare, ImprovementIsNotARegression) {
  const RunReport base = goldenSweep();
  RunReport next = base;
  slowDown(next, 32768, 0.5);  // twice as fast
  RunReport doc = compareDocuments({"a.json", base}, {{"b.json", next}}, {});
  applyVerdict(doc, false);
  EXPECT_EQ(doc.exit_code, 0);
}

TEST(Compare, LatencyBoundSizeNeedsTheSlackToo) {
  const RunReport base = goldenSweep();
  RunReport next = base;
  slowDown(next, 8, 1.5);  // +50%: whether that is beyond the 2 us slack depends on the time
  CompareOptions o;
  RunReport doc = compareDocuments({"a.json", base}, {{"b.json", next}}, o);
  const auto rows = rowsOf(doc.results[0]);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front().x, 8);
  EXPECT_EQ(rows.front().metric, "time_us");
  EXPECT_NEAR(rows.front().change_pct, 50, 1e-9);
  const bool withinSlack = rows.front().value - rows.front().base <= o.latencySlackUs;
  EXPECT_EQ(rows.front().regressed, !withinSlack);
  o.latencySlackUs = 0;  // without the slack the same change is a regression
  doc = compareDocuments({"a.json", base}, {{"b.json", next}}, o);
  EXPECT_TRUE(rowsOf(doc.results[0]).front().regressed);
}

TEST(Compare, NoiseWidensTheLimit) {
  // Changes of +-20% all over: three times their robust spread is far above 5%, so a -20% size is noise.
  std::vector<double> changes{20, -20, 18, -18, 22, -22, 19, -19};
  CompareOptions o;
  const double limit = noiseLimitPct(changes, o);
  EXPECT_GT(limit, 20);
  // The median absolute deviation from the median (0) is 19.5; times 1.4826 and k = 3.
  EXPECT_NEAR(limit, 3 * 1.4826 * 19.5, 1e-9);
  EXPECT_EQ(noiseLimitPct({0, 0, 0, 0, 0, -20}, o), 5);  // one outlier does not widen it
  EXPECT_EQ(noiseLimitPct({20, -20, 20}, o), 5);         // too few values to estimate noise
  o.noiseK = 0;
  EXPECT_EQ(noiseLimitPct(changes, o), 5);
}

Result pairsResult(double bw01, double lat01) {
  Result r;
  r.key = "pairs";
  r.kind = Kind::kPairs;
  PairRow p;
  p.host_a = "node0";
  p.host_b = "node1";
  p.bw_a_to_b_gbps = bw01;
  p.bw_b_to_a_gbps = bw01 + 1;
  p.lat_us = lat01;
  r.rows.push_back(toJson(p));
  return r;
}

TEST(Compare, ANoisyPassIsAWarning) {
  // Eight pairs whose bandwidth moved +-30% both ways: nothing beyond the widened limit, but that limit is far
  // above the 5% asked for, so the comparison cannot vouch for 5%.
  RunReport a, b;
  Result pa, pb;
  pa.key = pb.key = "pairs";
  pa.kind = pb.kind = Kind::kPairs;
  for (int i = 0; i < 8; ++i) {
    PairRow p;
    p.host_a = "n" + std::to_string(i);
    p.host_b = "m" + std::to_string(i);
    p.bw_a_to_b_gbps = p.bw_b_to_a_gbps = 10;
    p.lat_us = 5;
    pa.rows.push_back(toJson(p));
    p.bw_a_to_b_gbps = p.bw_b_to_a_gbps = i % 2 ? 13 : 7.7;
    pb.rows.push_back(toJson(p));
  }
  a.results.push_back(pa);
  b.results.push_back(pb);
  RunReport doc = compareDocuments({"a", a}, {{"b", b}}, {});
  applyVerdict(doc, false);
  EXPECT_EQ(doc.results.at(0).status, Status::kWarn) << doc.results[0].message;
  EXPECT_GT(doc.results[0].metrics.at("limit_pct").get<double>(), 10);
  EXPECT_EQ(doc.exit_code, 0);
}

TEST(Compare, PairsByHostNames) {
  RunReport a, b;
  a.results.push_back(pairsResult(10, 20));
  b.results.push_back(pairsResult(7, 20));  // -30% bandwidth on the slower direction
  RunReport doc = compareDocuments({"a", a}, {{"b", b}}, {});
  const auto rows = rowsOf(doc.results.at(0));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].item, "node0-node1");
  EXPECT_NEAR(rows[0].change_pct, -30, 1e-9);
  EXPECT_TRUE(rows[0].regressed);
  EXPECT_FALSE(rows[1].regressed);
}

Result scaleResult(double thrMedian, double thrMin, double thrMax) {
  Result r;
  r.key = "scale.weak";
  r.kind = Kind::kScale;
  r.rows.push_back(Json{{"ranks", 2},
                        {"throughput_sps", {{"median", thrMedian}, {"min", thrMin}, {"max", thrMax}}},
                        {"efficiency", {{"median", 0.9}, {"min", 0.88}, {"max", 0.92}}}});
  return r;
}

TEST(Compare, ScaleNeedsTheRangesApart) {
  RunReport a, apart, overlap;
  a.results.push_back(scaleResult(1000, 980, 1020));
  apart.results.push_back(scaleResult(800, 790, 810));    // -20%, every repetition below BASE's
  overlap.results.push_back(scaleResult(800, 700, 990));  // -20% median, but a repetition within BASE's range
  auto first = [](const RunReport& d) { return comparisonRowFromJson(d.results.at(0).rows.at(0)); };
  EXPECT_TRUE(first(compareDocuments({"a", a}, {{"b", apart}}, {})).regressed);
  const ComparisonRow o = first(compareDocuments({"a", a}, {{"b", overlap}}, {}));
  EXPECT_FALSE(o.regressed);
  EXPECT_EQ(o.note, "repetition ranges overlap");
}

TEST(Compare, WorseStatusAndMissingResults) {
  RunReport a, b;
  Result probe;
  probe.key = "probe.net";
  probe.kind = Kind::kProbe;
  probe.host = "node1";
  a.results.push_back(probe);
  probe.status = Status::kFail;
  probe.message = "eth0 is down";
  b.results.push_back(probe);
  Result gone;
  gone.key = "probe.gpu";
  gone.kind = Kind::kProbe;
  a.results.push_back(gone);
  RunReport doc = compareDocuments({"a", a}, {{"b", b}}, {});
  applyVerdict(doc, false);
  ASSERT_EQ(doc.results.size(), 2u);
  EXPECT_EQ(doc.results[0].status, Status::kFail);
  EXPECT_NE(doc.results[0].message.find("pass -> fail"), std::string::npos);
  EXPECT_EQ(doc.results[1].status, Status::kWarn);  // a figure that disappeared is not a pass
  EXPECT_EQ(doc.exit_code, 1);
}

TEST(Compare, SeveralNewRunsShareOneOverlayChart) {
  const RunReport base = goldenSweep();
  RunReport slow = base;
  slowDown(slow, 32768, 1.25);
  const RunReport doc = compareDocuments({"a.json", base}, {{"b.json", base}, {"c.json", slow}}, {});
  const charts::ChartSet set = charts::chartsFor(doc);
  ASSERT_EQ(set.charts.size(), 2u);
  const charts::Chart& level = set.charts[0];
  EXPECT_EQ(level.id, "compare.sweep.all_reduce.busbw");
  ASSERT_EQ(level.series.size(), 4u);  // BASE, b.json, c.json, and c.json's flagged size
  EXPECT_EQ(level.series[0].name, "BASE (float sum)");
  EXPECT_EQ(level.series[2].name, "c.json (float sum)");
  const charts::Series& flagged = level.series[3];
  EXPECT_EQ(flagged.name, "regressed: c.json (float sum)");
  EXPECT_TRUE(flagged.regression);
  ASSERT_EQ(flagged.points.size(), 1u);
  EXPECT_DOUBLE_EQ(flagged.points[0].x, 32768);
  const auto& change = set.charts[1].series;  // marked on the change chart too
  EXPECT_EQ(std::count_if(change.begin(), change.end(), [](const charts::Series& s) { return s.regression; }), 1);
  EXPECT_NEAR(level.series[2].points.back().y / level.series[0].points.back().y, 0.8, 1e-12);
}

}  // namespace
}  // namespace pf::reports::compare

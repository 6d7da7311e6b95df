// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight compare` on small made-up sweeps, with exact values: the figure compared is the printed one (the
// mean time and its busbw, not the per-iteration median), "worst" is the largest flagged regression, and runs
// of a different setup are refused (backend; no data type in common) or compared with a first-line warning and
// nothing judged (world size, node count).
#include <gtest/gtest.h>

#include "compare/compare.hpp"
#include "pf/error.hpp"
#include "pf/sweep_row.hpp"
#include "pf/verdict.hpp"
#include "reporter.hpp"

namespace pf::reports::compare {
namespace {

/// One out-of-place all-reduce row: busbw = algbw = size / time (a 2-rank all-reduce's factor is 1).
SweepRow sweepRowOf(uint64_t size, double timeUs, double p50Us, const std::string& dtype = "float") {
  SweepRow r;
  r.collective = "all_reduce";
  r.size_bytes = size;
  r.count = size / 4;
  r.dtype = dtype;
  r.op = "sum";
  r.placement = "out";
  r.time_us = timeUs;
  r.algbw_gbps = r.busbw_gbps = static_cast<double>(size) / timeUs / 1e3;
  r.iter_p50_us = p50Us;
  return r;
}

RunReport sweepDoc(const std::vector<SweepRow>& rows, int ranks = 2, int nodes = 1,
                   const std::string& backend = "mpi") {
  RunReport doc;
  doc.context.command = "sweep";
  doc.context.world_size = ranks;
  doc.context.node_count = nodes;
  Result r;
  r.key = "sweep.all_reduce";
  r.kind = Kind::kSweep;
  SweepParams p;
  p.collective = "all_reduce";
  p.backend = backend;
  p.ranks = ranks;
  r.params = toJson(p);
  for (const SweepRow& row : rows) r.rows.push_back(toJson(row));
  doc.results.push_back(r);
  return doc;
}

std::vector<ComparisonRow> setupRowsOf(const Result& r) {
  std::vector<ComparisonRow> out;
  for (const Json& j : r.rows) out.push_back(comparisonRowFromJson(j));
  return out;
}

constexpr uint64_t k2MiB = 2 << 20;

TEST(CompareSetup, ComparesThePrintedMeanNotTheMedian) {
  // The mean time grew by half while the median iteration did not move: the table showed 100 -> 150 us.
  const RunReport base = sweepDoc({sweepRowOf(256, 100, 50)});
  const RunReport next = sweepDoc({sweepRowOf(256, 150, 50)});
  RunReport doc = compareDocuments({"a.json", base}, {{"b.json", next}}, {});
  const auto rows = setupRowsOf(doc.results.at(0));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].metric, "time_us");
  EXPECT_DOUBLE_EQ(rows[0].base, 100);
  EXPECT_DOUBLE_EQ(rows[0].value, 150);
  EXPECT_DOUBLE_EQ(rows[0].change_pct, 50);
  EXPECT_TRUE(rows[0].regressed);
  EXPECT_EQ(doc.results[0].params.at("basis"), "out-of-place mean time and busbw, as printed");
}

TEST(CompareSetup, TheOutOfPlaceFigureEvenWhenInPlaceWasFaster) {
  SweepRow in = sweepRowOf(256, 10, 10);
  in.placement = "in";
  const RunReport base = sweepDoc({sweepRowOf(256, 20, 20), in});
  const RunReport next = sweepDoc({sweepRowOf(256, 30, 30), in});
  const auto rows = setupRowsOf(compareDocuments({"a", base}, {{"b", next}}, {}).results.at(0));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0].base, 20);
  EXPECT_DOUBLE_EQ(rows[0].value, 30);
}

TEST(CompareSetup, WorstIsTheLargestFlaggedRegression) {
  // 256 B: +78% of 1 us, within the 2 us latency slack (not a regression); 2 MiB: busbw -76%, flagged.
  const RunReport base = sweepDoc({sweepRowOf(256, 1.0, 1.0), sweepRowOf(k2MiB, 100, 100)});
  const RunReport next = sweepDoc({sweepRowOf(256, 1.78, 1.78), sweepRowOf(k2MiB, 100 / 0.24, 100 / 0.24)});
  RunReport doc = compareDocuments({"a.json", base}, {{"b.json", next}}, {});
  applyVerdict(doc, false);
  EXPECT_EQ(doc.exit_code, 1);
  const Result& r = doc.results.at(0);
  const auto rows = setupRowsOf(r);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_FALSE(rows[0].regressed);
  EXPECT_EQ(rows[0].note, "within 2 us");
  EXPECT_NEAR(rows[0].change_pct, 78, 1e-9);
  EXPECT_TRUE(rows[1].regressed);
  EXPECT_NEAR(rows[1].change_pct, -76, 1e-9);
  EXPECT_NE(r.message.find("1 of 2 figures regressed"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("worst regression: float sum 2 MiB busbw_gbps 20.97 -> 5.033 (-76.0%)"), std::string::npos)
      << r.message;
  EXPECT_EQ(r.message.find("256 B"), std::string::npos) << r.message;
}

TEST(CompareSetup, ADifferentWorldSizeIsTheFirstLineAndNothingIsJudged) {
  const RunReport base = sweepDoc({sweepRowOf(256, 1.0, 1.0), sweepRowOf(k2MiB, 100, 100)}, 2);
  const RunReport next = sweepDoc({sweepRowOf(256, 1.0, 1.0), sweepRowOf(k2MiB, 1176, 1176)}, 4);  // -91.5%
  RunReport doc = compareDocuments({"a.json", base}, {{"b.json", next}}, {});
  applyVerdict(doc, false);
  ASSERT_EQ(doc.results.size(), 2u);
  EXPECT_EQ(doc.results[0].key, "compare.setup");
  EXPECT_EQ(doc.results[0].status, Status::kWarn);
  EXPECT_EQ(doc.results[0].message,
            "a.json and b.json ran differently: world size 2 ranks vs 4 ranks (busbw and times depend on it: sweep "
            "changes are listed, not judged as regressions)");
  EXPECT_NE(doc.results[1].message.find("2 figures of b.json listed, none judged (world size 2 ranks vs 4 ranks)"),
            std::string::npos)
      << doc.results[1].message;
  EXPECT_EQ(doc.results[1].status, Status::kWarn);
  for (const ComparisonRow& row : setupRowsOf(doc.results[1])) {
    EXPECT_FALSE(row.regressed);
    EXPECT_EQ(row.note, "not judged");
  }
  EXPECT_EQ(doc.exit_code, 0);  // a warning: --strict fails it
  applyVerdict(doc, true);
  EXPECT_EQ(doc.exit_code, 1);
  const std::string table = renderDocument("table", doc);
  EXPECT_EQ(table.substr(0, table.find('\n')).rfind("warn    compare.setup", 0), 0u) << table;
}

TEST(CompareSetup, ADifferentNodeCountIsWarnedToo) {
  const RunReport base = sweepDoc({sweepRowOf(k2MiB, 100, 100)}, 8, 1);
  const RunReport next = sweepDoc({sweepRowOf(k2MiB, 100, 100)}, 8, 2);
  const RunReport doc = compareDocuments({"a", base}, {{"b", next}}, {});
  EXPECT_EQ(doc.results.at(0).key, "compare.setup");
  EXPECT_NE(doc.results[0].message.find("node count 1 node vs 2 nodes"), std::string::npos) << doc.results[0].message;
}

TEST(CompareSetup, ADifferentBackendOrNoCommonDataTypeIsRefusedNamingBothFiles) {
  const RunReport base = sweepDoc({sweepRowOf(k2MiB, 100, 100)});
  const auto refused = [&](const RunReport& next) -> std::string {
    try {
      compareDocuments({"golden.json", base}, {{"today.json", next}}, {});
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(refused(sweepDoc({sweepRowOf(k2MiB, 100, 100)}, 2, 1, "nccl")),
            "cannot compare golden.json with today.json: backend (golden.json has mpi, today.json has nccl); compare "
            "runs of the same backend, collective, data type and op");
  const std::string dtype = refused(sweepDoc({sweepRowOf(k2MiB, 100, 100, "half")}));
  EXPECT_NE(dtype.find("data type (golden.json has float, today.json has half)"), std::string::npos) << dtype;
  // One data type in common: compared, and the other named in the first result.
  const RunReport both = sweepDoc({sweepRowOf(k2MiB, 100, 100), sweepRowOf(k2MiB, 100, 100, "half")});
  const RunReport doc = compareDocuments({"golden.json", both}, {{"today.json", base}}, {});
  EXPECT_EQ(doc.results.at(0).key, "compare.setup");
  EXPECT_NE(doc.results[0].message.find("data type float, half vs float"), std::string::npos) << doc.results[0].message;
  EXPECT_EQ(doc.results.at(1).status, Status::kPass);
}

}  // namespace
}  // namespace pf::reports::compare

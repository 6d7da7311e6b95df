// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// From a check document to the run the history keeps: node verdicts from the findings naming them, each node's
// median pair bandwidth, the all-reduce's figure at its largest size.
#include "history_record.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "history_fixtures.hpp"
#include "pf/error.hpp"

namespace pf::history {
namespace {

using testing::finding;
using ::testing::HasSubstr;
using testing::pairRow;
using testing::sweepRow;

RunReport threeNodeCheck() {
  RunReport doc;
  doc.context.command = "check";
  doc.context.argv = {"preflight", "check", "--history", "h.db"};
  doc.context.start_time = "2026-12-02T05:00:00Z";
  doc.context.end_time = "2026-12-02T05:00:09Z";
  doc.context.version = "0.1.0";
  doc.context.node_count = 3;
  Result probe;
  probe.key = "probe.gpu";
  probe.kind = Kind::kProbe;
  probe.status = Status::kAbsent;
  probe.host = "a";
  doc.results.push_back(probe);
  Result sweep;
  sweep.key = "sweep.all_reduce";
  sweep.kind = Kind::kSweep;
  sweep.rows = {sweepRow(8, 0.01), sweepRow(512 << 10, 3.5), sweepRow(512 << 10, 9.0, "in"), sweepRow(2048, 0.7)};
  doc.results.push_back(sweep);
  Result pairs;
  pairs.key = "pairs";
  pairs.kind = Kind::kPairs;
  pairs.rows = {pairRow("a", "b", 10, 12, 3), pairRow("a", "c", 11, 9, 4), pairRow("b", "c", 5, 4, 20)};
  doc.results.push_back(pairs);
  doc.results.push_back(finding({"c"}, "pairs.node", Status::kFail));
  doc.results.push_back(finding({"b", "c"}, "pairs.link", Status::kWarn));
  doc.results.push_back(finding({"a"}, "probe.gpu", Status::kSkipped));
  doc.verdict = Status::kFail;
  doc.exit_code = 1;
  return doc;
}

TEST(HistoryRecord, NodesFindingsAndFiguresFromACheckDocument) {
  const RunRecord run = recordFromReport(threeNodeCheck());
  EXPECT_EQ(run.started, "2026-12-02T05:00:00Z");
  EXPECT_EQ(run.ended, "2026-12-02T05:00:09Z");
  EXPECT_EQ(run.commandLine, "preflight check --history h.db");
  EXPECT_EQ(run.hostCount, 3);
  EXPECT_EQ(run.verdict, Status::kFail);
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_EQ(run.version, "0.1.0");
  ASSERT_TRUE(run.allReduceBusbwGbps);
  EXPECT_DOUBLE_EQ(*run.allReduceBusbwGbps, 3.5);  // the largest size, out-of-place
  ASSERT_EQ(run.nodes.size(), 3u);
  // a: its pairs' slower directions 10 and 9; a skipped finding names it but does not count.
  EXPECT_EQ(run.nodes[0].host, "a");
  EXPECT_EQ(run.nodes[0].verdict, Status::kPass);
  EXPECT_EQ(run.nodes[0].findings, 1);
  EXPECT_DOUBLE_EQ(*run.nodes[0].pairMedianGbps, 9.5);
  EXPECT_FALSE(run.nodes[0].allReduceBusbwGbps);  // three nodes: the all-reduce is the allocation's
  EXPECT_EQ(run.nodes[1].host, "b");
  EXPECT_EQ(run.nodes[1].verdict, Status::kWarn);
  EXPECT_EQ(run.nodes[1].findings, 1);
  EXPECT_DOUBLE_EQ(*run.nodes[1].pairMedianGbps, 7.0);
  EXPECT_EQ(run.nodes[2].host, "c");
  EXPECT_EQ(run.nodes[2].verdict, Status::kFail);
  EXPECT_EQ(run.nodes[2].findings, 2);
  EXPECT_DOUBLE_EQ(*run.nodes[2].pairMedianGbps, 6.5);
  ASSERT_EQ(run.findings.size(), 3u);
  EXPECT_EQ(run.findings[1].host, "b,c");
  EXPECT_EQ(run.findings[1].check, "check.pairs.link");
  EXPECT_EQ(run.findings[1].status, Status::kWarn);
  EXPECT_EQ(run.findings[1].remedy, "fix b");
  ASSERT_EQ(run.pairs.size(), 3u);
  EXPECT_DOUBLE_EQ(run.pairs[2].outGbps, 5);
  EXPECT_DOUBLE_EQ(run.pairs[2].inGbps, 4);
  EXPECT_DOUBLE_EQ(run.pairs[2].latUs, 20);
}

TEST(HistoryRecord, OneNodeCheckKeepsTheAllReduceAsTheNodesFigure) {
  RunReport doc;
  doc.context.command = "check";
  doc.context.hostname = "solo";
  Result sweep;
  sweep.key = "sweep.all_reduce";
  sweep.kind = Kind::kSweep;
  sweep.rows = {sweepRow(2048, 0.5), sweepRow(32768, 2.25)};
  doc.results.push_back(sweep);
  const RunRecord run = recordFromReport(doc);
  ASSERT_EQ(run.nodes.size(), 1u);
  EXPECT_EQ(run.nodes[0].host, "solo");
  EXPECT_EQ(run.nodes[0].verdict, Status::kPass);
  EXPECT_FALSE(run.nodes[0].pairMedianGbps);
  EXPECT_DOUBLE_EQ(*run.nodes[0].allReduceBusbwGbps, 2.25);
}

TEST(HistoryRecord, RefusesADocumentOfAnotherCommand) {
  RunReport doc;
  doc.context.command = "sweep";
  try {
    (void)recordFromReport(doc);
    FAIL() << "a sweep document was recorded";
  } catch (const UsageError& e) {
    EXPECT_THAT(e.what(), HasSubstr("this document is of `preflight sweep`"));
  }
}

}  // namespace
}  // namespace pf::history

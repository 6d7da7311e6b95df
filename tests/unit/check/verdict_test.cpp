// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Size-aware all-reduce limits, the baseline comparison, and the verdict/summary.
#include "pf/verdict.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "allreduce_verdict.hpp"
#include "baseline.hpp"
#include "pair_analysis.hpp"
#include "pair_fixtures.hpp"
#include "pf/sweep_row.hpp"
#include "reporter.hpp"
#include "verdict.hpp"

namespace pf::check {
namespace {

using ::testing::HasSubstr;

Json sweepRow(uint64_t size, double timeUs, double busbw, int64_t wrong = 0) {
  SweepRow r;
  r.collective = "all_reduce";
  r.size_bytes = size;
  r.count = size / 4;
  r.dtype = "float";
  r.op = "sum";
  r.placement = "out";
  r.time_us = timeUs;
  r.busbw_gbps = busbw;
  r.wrong = wrong;
  return toJson(r);
}

Expectation pairExpectation() {
  Expectation e;
  e.bwGbps = 1.5;
  e.latUs = 40;
  return e;
}

TEST(AllReduceVerdict, BandwidthLimitOnlyWhereBandwidthBound) {
  // Bandwidth-delay product 1.5 GB/s x 40 us = 60 kB; x4 = 240 kB is the first bandwidth-bound size.
  EXPECT_NEAR(bandwidthBoundBytes(pairExpectation(), AllReduceLimits{}), 240000, 1);
  Result sweep;
  sweep.kind = Kind::kSweep;
  // 2 KiB at a terrible "busbw" but a fine time: latency-bound, so no finding.
  sweep.rows.push_back(sweepRow(2048, 200, 0.01));
  EXPECT_TRUE(judgeAllReduce(sweep, pairExpectation(), 4, AllReduceLimits{}).empty());
  // 512 KiB at 0.02 GB/s: bandwidth-bound and far below: a warning naming the bandwidth.
  sweep.rows.push_back(sweepRow(512 << 10, 40000, 0.02));
  auto f = judgeAllReduce(sweep, pairExpectation(), 4, AllReduceLimits{});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "allreduce.bandwidth");
  EXPECT_EQ(f[0].status, Status::kWarn);
  // 8 B taking 10 ms: latency-bound and way over 10 x 6 x 40 us.
  sweep.rows = Json::array({sweepRow(8, 10000, 0)});
  f = judgeAllReduce(sweep, pairExpectation(), 4, AllReduceLimits{});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "allreduce.latency");
}

TEST(AllReduceVerdict, ADeclaredBusbwReplacesThePairExpectation) {
  // 512 KiB at 1.0 GB/s passes 25% of the pair expectation (1.5 GB/s) but not 25% of a profile's 8 GB/s.
  Result sweep;
  sweep.kind = Kind::kSweep;
  sweep.rows.push_back(sweepRow(512 << 10, 500, 1.0));
  EXPECT_TRUE(judgeAllReduce(sweep, pairExpectation(), 4, AllReduceLimits{}).empty());
  AllReduceLimits declared;
  declared.declaredBusbwGbps = 8;
  declared.declaredSource = "node.toml";
  auto f = judgeAllReduce(sweep, pairExpectation(), 4, declared);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "allreduce.bandwidth");
  EXPECT_THAT(f[0].message, HasSubstr("below 25% of the profile's all-reduce expectation (node.toml) 8.000 GB/s"));
}

TEST(AllReduceVerdict, WrongElementsFailWhateverTheExpectation) {
  Result sweep;
  sweep.kind = Kind::kSweep;
  sweep.rows.push_back(sweepRow(8, 10, 0, 3));
  auto f = judgeAllReduce(sweep, Expectation{}, 4, AllReduceLimits{});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "allreduce.correctness");
  EXPECT_EQ(f[0].status, Status::kFail);
  EXPECT_THAT(f[0].message, HasSubstr("3 wrong elements"));
}

TEST(Baseline, PairDropBeyondTheLimitFails) {
  auto before = testing::makeMatrix(4, 2.0);
  RunReport base;
  Result pairs;
  pairs.kind = Kind::kPairs;
  for (const PairRow& r : before.rows) pairs.rows.push_back(toJson(r));
  base.results.push_back(pairs);
  auto now = testing::makeMatrix(4, 2.0, {}, {{0, 2}}, 1.0);  // one pair halved
  auto f = compareWithBaseline(base, Context{}, now.rows, nullptr, 0, 20);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].hosts, (std::vector<std::string>{"node0", "node2"}));
  EXPECT_THAT(f[0].message, HasSubstr("lower; limit 20%"));
  EXPECT_TRUE(compareWithBaseline(base, Context{}, before.rows, nullptr, 0, 20).empty());
}

TEST(Verdict, WarningsFailOnlyWhenStrict) {
  RunReport r;
  r.context.command = "check";
  Finding warn;
  warn.check = "pairs.link";
  warn.status = Status::kWarn;
  warn.hosts = {"a", "b"};
  warn.message = "slowish";
  r.results = findingsToResults({warn});
  EXPECT_EQ(r.results[0].key, "check.pairs.link");
  EXPECT_EQ(r.results[0].host, "a,b");
  applyVerdict(r, false);
  EXPECT_EQ(r.verdict, Status::kWarn);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(reports::renderDocument("table", r), HasSubstr("warnings do not fail without --strict"));
  applyVerdict(r, true);
  EXPECT_EQ(r.exit_code, 1);
}

TEST(Verdict, SummaryNamesNodeCheckEvidenceAndRemedy) {
  auto m = testing::makeMatrix(4, 1.5, {3});
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  RunReport r;
  r.context.command = "check";
  r.context.node_count = 4;
  r.results = findingsToResults(a.findings);
  applyVerdict(r, false);
  EXPECT_EQ(r.exit_code, 1);
  std::string s = reports::renderDocument("table", r);
  EXPECT_THAT(s, HasSubstr("preflight check: FAIL (4 nodes"));
  EXPECT_THAT(s, HasSubstr("failing: node3"));
  EXPECT_THAT(s, HasSubstr("FAIL  node3 [check.pairs.node_bandwidth]"));
  EXPECT_THAT(s, HasSubstr("node0-node3 0.025 GB/s"));
  EXPECT_THAT(s, HasSubstr("remedy: drain node3"));
  // The verdict, with the exit code, comes last; --quiet prints it alone.
  EXPECT_THAT(s, ::testing::EndsWith("failing: node3\n"));
  reports::ReportOptions quiet;
  quiet.quiet = true;
  EXPECT_EQ(reports::renderDocument("table", r, quiet),
            "preflight check: FAIL (4 nodes, 1 rank, exit 1); failing: node3\n");
}

}  // namespace
}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight check --baseline` on made-up documents: the worst regression first, the all-reduce not judged
// against a baseline of another world size (a warning says so; pairs still are), sizes matched by data type.
#include "baseline.hpp"

#include <gtest/gtest.h>

#include "pf/sweep_row.hpp"

namespace pf::check {
namespace {

Json allReduceRow(uint64_t size, double busbw, const std::string& dtype = "float") {
  SweepRow r;
  r.collective = "all_reduce";
  r.size_bytes = size;
  r.dtype = dtype;
  r.op = "sum";
  r.placement = "out";
  r.time_us = 100;
  r.busbw_gbps = busbw;
  return toJson(r);
}

Result allReduce(const std::vector<Json>& rows, int ranks) {
  Result r;
  r.key = "sweep.all_reduce";
  r.kind = Kind::kSweep;
  SweepParams p;
  p.collective = "all_reduce";
  p.backend = "mpi";
  p.ranks = ranks;
  r.params = toJson(p);
  r.rows = rows;
  return r;
}

Context contextOf(int ranks, int nodes) {
  Context c;
  c.command = "check";
  c.world_size = ranks;
  c.node_count = nodes;
  return c;
}

PairRow pair(const std::string& a, const std::string& b, double gbps) {
  PairRow p;
  p.host_a = a;
  p.host_b = b;
  p.bw_a_to_b_gbps = p.bw_b_to_a_gbps = gbps;
  p.lat_us = 5;
  return p;
}

constexpr uint64_t k1MiB = 1 << 20;

TEST(Baseline, TheWorstRegressionComesFirst) {
  RunReport base;
  Result pairs;
  pairs.kind = Kind::kPairs;
  for (const PairRow& p : {pair("a", "b", 10), pair("c", "d", 10)}) pairs.rows.push_back(toJson(p));
  base.results.push_back(pairs);
  const auto f = compareWithBaseline(base, contextOf(4, 4), {pair("a", "b", 7), pair("c", "d", 4)}, nullptr, 0, 20);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].hosts, (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(f[0].message, "pair c-d: 4.000 GB/s now, 10.000 GB/s in the baseline (60% lower; limit 20%)");
  EXPECT_EQ(f[1].hosts, (std::vector<std::string>{"a", "b"}));
}

TEST(Baseline, AnotherWorldSizeIsAWarningNotARegression) {
  RunReport base;
  base.context = contextOf(8, 8);
  base.results.push_back(allReduce({allReduceRow(k1MiB, 10)}, 8));
  const Result now = allReduce({allReduceRow(k1MiB, 2)}, 4);  // -80%, but on half the nodes
  auto f = compareWithBaseline(base, contextOf(4, 4), {}, &now, 0, 20);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "baseline.setup");
  EXPECT_EQ(f[0].status, Status::kWarn);
  EXPECT_EQ(f[0].message,
            "the all-reduce is not compared with the baseline: world size 8 ranks vs 4 ranks, node count 8 nodes vs "
            "4 nodes (baseline vs this run); busbw depends on them, so a change would not be a regression");
  // The same run on as many nodes as the baseline: the drop is a regression.
  const Result full = allReduce({allReduceRow(k1MiB, 2)}, 8);
  f = compareWithBaseline(base, contextOf(8, 8), {}, &full, 0, 20);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "baseline.regression");
  EXPECT_EQ(f[0].message,
            "all_reduce busbw at 1 MiB: 2.000 GB/s now, 10.000 GB/s in the baseline (80% lower; limit 20%)");
}

TEST(Baseline, PairsAreJudgedWhateverTheWorldSize) {
  RunReport base;
  base.context = contextOf(8, 8);
  base.results.push_back(allReduce({allReduceRow(k1MiB, 10)}, 8));
  Result pairs;
  pairs.kind = Kind::kPairs;
  pairs.rows.push_back(toJson(pair("a", "b", 10)));
  base.results.push_back(pairs);
  const Result now = allReduce({allReduceRow(k1MiB, 10)}, 2);
  const auto f = compareWithBaseline(base, contextOf(2, 2), {pair("a", "b", 5)}, &now, 0, 20);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].check, "baseline.setup");
  EXPECT_NE(f[0].message.find("; pairs are compared by host names"), std::string::npos) << f[0].message;
  EXPECT_EQ(f[1].check, "baseline.regression");
  EXPECT_EQ(f[1].hosts, (std::vector<std::string>{"a", "b"}));
}

TEST(Baseline, SizesAreMatchedByDataType) {
  // A baseline that also ran half precision (faster): this run's float figures are compared with float's.
  RunReport base;
  base.context = contextOf(4, 4);
  base.results.push_back(allReduce({allReduceRow(k1MiB, 10), allReduceRow(k1MiB, 30, "half")}, 4));
  const Result now = allReduce({allReduceRow(k1MiB, 10)}, 4);
  EXPECT_TRUE(compareWithBaseline(base, contextOf(4, 4), {}, &now, 0, 20).empty());
}

}  // namespace
}  // namespace pf::check

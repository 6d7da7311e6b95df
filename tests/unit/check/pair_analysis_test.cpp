// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pair_analysis.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "pair_fixtures.hpp"
#include "pf/error.hpp"

namespace pf::check {
namespace {

using ::testing::HasSubstr;
using testing::makeMatrix;

TEST(Expectation, HealthyMajorityIgnoresOneSlowNode) {
  for (int n : {3, 4, 5, 8, 16}) {
    auto m = makeMatrix(n, 1.5, {n - 1});
    Expectation e = expectFromMajority(m.rows, n, 0.5, 5);
    ASSERT_TRUE(e.bwGbps) << n;
    EXPECT_NEAR(*e.bwGbps, 1.5, 0.16) << n;
    EXPECT_NEAR(*e.latUs, 40, 5) << n;
    EXPECT_TRUE(e.relative);
    EXPECT_THAT(e.source, HasSubstr("healthy majority"));
  }
}

TEST(Expectation, TwoNodesHaveNoMajority) {
  auto m = makeMatrix(2, 1.5);
  Expectation e = expectFromMajority(m.rows, 2, 0.5, 5);
  EXPECT_FALSE(e.relative);
  EXPECT_THAT(e.source, HasSubstr("no majority"));
}

TEST(Expectation, FromLinkRates) {
  // 2 x 200 Gbit/s on one node, 1 x 100 on another: one port used -> the slower node's best port.
  std::vector<NodeLinks> links = {{"a", {200, 200}}, {"b", {100}}};
  EXPECT_DOUBLE_EQ(*expectFromLinks(links, 1), 12.5);
  EXPECT_DOUBLE_EQ(*expectFromLinks({{"a", {200, 200}}, {"b", {400, 0}}}, 2), 50.0);
  EXPECT_FALSE(expectFromLinks({{"a", {200}}, {"b", {}}}, 1));  // one unknown node: no figure
  EXPECT_FALSE(expectFromLinks({}, 1));
}

TEST(PairAnalysis, HealthyMatrixHasNoFindings) {
  auto m = makeMatrix(8, 1.5);
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  EXPECT_EQ(a.status, Status::kPass);
  EXPECT_TRUE(a.findings.empty());
  for (const PairRow& r : m.rows) {
    EXPECT_EQ(r.status, Status::kPass);
    ASSERT_TRUE(r.pct_of_expected);
    EXPECT_NEAR(*r.pct_of_expected, 100, 15);
  }
}

TEST(PairAnalysis, ADeclaredPairBusbwReplacesTheLinkRates) {
  // Healthy pairs at 1.5 GB/s; the links would allow 1.6 GB/s, the profile declares 1.55: the declared one is
  // the expectation and names its source.
  auto m = makeMatrix(4, 1.5);
  PairLimits limits;
  limits.declaredBwGbps = 1.55;
  limits.declaredSource = "node.toml";
  PairAnalysis a = analyzePairs(m.rows, m.nodes, limits, 1.6, "1 port(s) per node");
  ASSERT_TRUE(a.expected.bwGbps);
  EXPECT_DOUBLE_EQ(*a.expected.bwGbps, 1.55);
  EXPECT_THAT(a.expected.source, HasSubstr("declared: the node profile's expect.pair_busbw_gbs (node.toml)"));
  EXPECT_EQ(a.status, Status::kPass);
  // A declared figure the whole run misses by more than the fail limit is a finding about the run.
  limits.declaredBwGbps = 10;
  auto m2 = makeMatrix(4, 1.5);
  PairAnalysis b = analyzePairs(m2.rows, m2.nodes, limits, 1.6, "1 port(s) per node");
  ASSERT_FALSE(b.findings.empty());
  EXPECT_EQ(b.findings[0].check, "pairs.fabric");
  EXPECT_THAT(b.findings[0].message, HasSubstr("expect.pair_busbw_gbs (node.toml)"));
}

TEST(PairAnalysis, NamesTheSlowNodeWhicheverItIs) {
  for (int n : {3, 4, 5, 8}) {
    for (int slow = 0; slow < n; ++slow) {
      auto m = makeMatrix(n, 1.5, {slow});
      PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
      ASSERT_EQ(a.findings.size(), 1u) << "n=" << n << " slow=" << slow;
      const Finding& f = a.findings[0];
      EXPECT_EQ(f.check, "pairs.node_bandwidth");
      EXPECT_EQ(f.status, Status::kFail);
      EXPECT_EQ(f.hosts, std::vector<std::string>{"node" + std::to_string(slow)});
      EXPECT_THAT(f.message, HasSubstr("0.025 GB/s"));
      EXPECT_THAT(f.message, HasSubstr("expected 1."));
      EXPECT_THAT(f.remedy, HasSubstr("drain node" + std::to_string(slow)));
      // Evidence: every pair of the node (sourced "pair a-b") plus the node's robust statistics.
      std::set<std::string> pairs;
      size_t nodeStats = 0;
      for (const Evidence& e : f.evidence) {
        if (e.source.rfind("pair ", 0) == 0) pairs.insert(e.source);
        nodeStats += e.source == "node node" + std::to_string(slow);
      }
      EXPECT_EQ(pairs.size(), static_cast<size_t>(n - 1));
      EXPECT_EQ(nodeStats, 2u);
      EXPECT_LT(a.nodeRobustZ[static_cast<size_t>(slow)], -3);
    }
  }
}

TEST(PairAnalysis, OneSlowLinkIsALinkNotANode) {
  auto m = makeMatrix(6, 1.5, {}, {{1, 4}});
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].check, "pairs.link");
  EXPECT_EQ(a.findings[0].hosts, (std::vector<std::string>{"node1", "node4"}));
  EXPECT_THAT(a.findings[0].remedy, HasSubstr("path between node1 and node4"));
}

TEST(PairAnalysis, TwoSlowNodesAmongEight) {
  auto m = makeMatrix(8, 1.5, {2, 5});
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  std::set<std::string> named;
  for (const Finding& f : a.findings) {
    EXPECT_EQ(f.check, "pairs.node_bandwidth");
    named.insert(f.hosts.at(0));
  }
  EXPECT_EQ(named, (std::set<std::string>{"node2", "node5"}));
}

// The 8-node case of issue 19: four pairs share the host's CPUs in each round, so healthy pairs range from
// 0.35 to 1.5 GB/s; one healthy link at 45% of the median is within that spread (a warning), while a node
// slowed to 0.025 GB/s is far outside it and still fails, named.
TEST(PairAnalysis, AHealthyPairWithinTheMajoritysSpreadIsNotFailed) {
  const std::vector<double> spread = {0.35, 0.5, 0.65, 0.8, 0.95, 1.1, 1.3, 1.5};
  for (bool slowNode : {false, true}) {
    auto m = makeMatrix(8, 1.0, slowNode ? std::set<int>{6} : std::set<int>{});
    size_t k = 0;
    for (PairRow& r : m.rows) {
      if (r.bwGbps() < 0.1) continue;  // the slowed node's pairs stay slow
      r.bw_a_to_b_gbps = r.bw_b_to_a_gbps = spread[k++ % spread.size()];
    }
    PairRow* link = nullptr;
    for (PairRow& r : m.rows)
      if ((r.node_a == 3 && r.node_b == 5) || (r.node_a == 5 && r.node_b == 3)) link = &r;
    ASSERT_NE(link, nullptr);
    link->bw_a_to_b_gbps = link->bw_b_to_a_gbps = 0.36;  // 45% of the healthy median
    PairRow* warnish = nullptr;  // 0.55 GB/s, 69%: below the warning fraction, inside the spread
    for (PairRow& r : m.rows)
      if ((r.node_a == 0 && r.node_b == 1) || (r.node_a == 1 && r.node_b == 0)) warnish = &r;
    warnish->bw_a_to_b_gbps = warnish->bw_b_to_a_gbps = 0.55;
    PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
    ASSERT_TRUE(a.expected.bwLogSpread);
    EXPECT_LT(0.36 / *a.expected.bwGbps, 0.5) << "the link must be below the fixed fail fraction for this to test";
    EXPECT_EQ(link->status, Status::kWarn) << link->reason;
    EXPECT_THAT(link->reason, HasSubstr("within the healthy pairs' own spread"));
    EXPECT_EQ(warnish->status, Status::kPass) << warnish->reason;
    for (const Finding& f : a.findings)
      if (f.status == Status::kFail) {
        EXPECT_TRUE(slowNode);
        EXPECT_EQ(f.hosts, std::vector<std::string>{"node6"}) << f.message;
      }
    EXPECT_EQ(a.status, slowNode ? Status::kFail : Status::kWarn);
    // With the spread rule off (z = 0: any pair below the fraction fails), the same link fails.
    PairLimits strict;
    strict.bwSpreadFailZ = 0;
    analyzePairs(m.rows, m.nodes, strict);
    EXPECT_EQ(link->status, Status::kFail);
  }
}

// The 8-node case as a CI run and one run in 16 here saw it: pairs measured again alone (confirmation) come back
// twice as fast as in the shared rounds. Judged against a majority that takes those figures in, a healthy link
// that passed the first pass and was never measured again fails; judged against the first pass's expectation,
// as the phase does, it passes, and the slowed node still fails.
TEST(PairAnalysis, AFixedExpectationIsNotMovedByPairsMeasuredAgain) {
  auto first = makeMatrix(8, 1.5, {5});
  PairRow* link = nullptr;
  for (PairRow& r : first.rows)
    if (r.node_a == 0 && r.node_b == 4) link = &r;
  ASSERT_NE(link, nullptr);
  link->bw_a_to_b_gbps = link->bw_b_to_a_gbps = 1.3;  // 87% of the first pass: within limits
  link->lat_us = 117;                                 // below the first pass's 140 us warning limit
  const Expectation firstPass = expectFromMajority(first.rows, 8, 0.5, 5);
  auto later = first;
  int again = 0;
  for (PairRow& r : later.rows) {
    const bool slow = r.node_a == 5 || r.node_b == 5, theLink = r.node_a == 0 && r.node_b == 4;
    if (slow || theLink || again == 12) continue;
    r.bw_a_to_b_gbps *= 2;
    r.bw_b_to_a_gbps *= 2;
    r.lat_us = 10;
    ++again;
  }
  std::vector<PairRow> fixedRows = later.rows, movingRows = later.rows;
  PairAnalysis fixed = analyzePairs(fixedRows, later.nodes, PairLimits{}, std::nullopt, "", firstPass);
  ASSERT_EQ(fixed.findings.size(), 1u);
  EXPECT_EQ(fixed.findings[0].hosts, std::vector<std::string>{"node5"});
  EXPECT_EQ(fixed.findings[0].status, Status::kFail);
  EXPECT_DOUBLE_EQ(*fixed.expected.bwGbps, *firstPass.bwGbps);
  // The moving majority, which the phase used before 2026-11-27, blames the healthy link.
  PairAnalysis moving = analyzePairs(movingRows, later.nodes, PairLimits{});
  bool linkBlamed = false;
  for (const Finding& f : moving.findings)
    linkBlamed |= f.check == "pairs.link" && f.hosts == std::vector<std::string>{"node0", "node4"};
  EXPECT_TRUE(linkBlamed) << "the rows no longer reproduce the moved expectation";
}

TEST(PairAnalysis, HalfSpeedWarnsThreeQuartersPasses) {
  auto m = makeMatrix(4, 2.0, {}, {{0, 1}}, 1.3);  // 65%: warn (between 50% and 75%)
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].status, Status::kWarn);
  EXPECT_EQ(a.status, Status::kWarn);
}

TEST(PairAnalysis, SlowLatencyNodeIsNamedByLatency) {
  auto m = makeMatrix(4, 1.5);
  for (PairRow& r : m.rows)
    if (r.node_a == 3 || r.node_b == 3) r.lat_us = 900;
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].check, "pairs.node_latency");
  EXPECT_EQ(a.findings[0].hosts[0], "node3");
}

TEST(PairAnalysis, LatencySlackKeepsNoiseOnFastLinksFromFailing) {
  // 5 us expected, 40 us measured: 8x, but only 35 us above: within the 100 us slack.
  auto m = makeMatrix(4, 1.5, {}, {}, 0.025, 5);
  m.rows[0].lat_us = 40;
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{});
  EXPECT_TRUE(a.findings.empty());
}

TEST(PairAnalysis, TwoNodesUseAbsoluteLimitsAndSayWhichEndIsUnknown) {
  auto m = makeMatrix(2, 0.025);
  PairAnalysis healthy = analyzePairs(m.rows, m.nodes, PairLimits{});
  EXPECT_TRUE(healthy.findings.empty());  // nothing to compare with
  PairLimits floor;
  floor.bwMinGbps = 1.0;
  PairAnalysis a = analyzePairs(m.rows, m.nodes, floor);
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].check, "pairs.link");
  EXPECT_THAT(a.findings[0].remedy, HasSubstr("cannot tell which end"));
}

TEST(PairAnalysis, UniformlySlowClusterFailsAsAWholeWithoutBlamingNodes) {
  // Every pair at 1.5 GB/s on 100 Gbit/s links (12.5 GB/s): the majority looks fine, the topology says no. That is
  // the run (MPI over TCP, NCCL on sockets, the fabric), not a node: one run-level finding, no node drained.
  auto m = makeMatrix(4, 1.5);
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{}, 12.5, "100 Gbit/s");
  EXPECT_EQ(a.status, Status::kFail);
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].check, "pairs.fabric");
  EXPECT_TRUE(a.findings[0].hosts.empty());
  EXPECT_THAT(a.findings[0].message, HasSubstr("12% of the 12.500 GB/s"));
  EXPECT_FALSE(a.expected.fromTopology);
  // A node slower than the rest of such a run is still named.
  auto slow = makeMatrix(5, 1.5, {4});
  PairAnalysis b = analyzePairs(slow.rows, slow.nodes, PairLimits{}, 12.5, "100 Gbit/s");
  bool named = false;
  for (const auto& f : b.findings)
    named |= f.check == "pairs.node_bandwidth" && f.hosts == std::vector<std::string>{slow.nodes.hosts[4]};
  EXPECT_TRUE(named);
}

TEST(PairAnalysis, TopologyExpectationJudgesPairsWhenTheRunReachesIt) {
  // Pairs at 10 GB/s on 100 Gbit/s links (80%): the port rate is the expectation; one pair at 5 GB/s fails.
  auto m = makeMatrix(4, 10.0);
  m.rows[0].bw_a_to_b_gbps = m.rows[0].bw_b_to_a_gbps = 5.0;
  PairAnalysis a = analyzePairs(m.rows, m.nodes, PairLimits{}, 12.5, "100 Gbit/s");
  EXPECT_TRUE(a.expected.fromTopology);
  EXPECT_NEAR(*m.rows[1].pct_of_expected, 80, 9);  // the fixture ripples pairs by up to 10%
  EXPECT_EQ(m.rows[0].status, Status::kFail);
}

TEST(PairRow, JsonRoundTrip) {
  auto m = makeMatrix(3, 1.5, {1});
  analyzePairs(m.rows, m.nodes, PairLimits{});
  for (const PairRow& r : m.rows) {
    PairRow back = pairRowFromJson(toJson(r));
    EXPECT_EQ(toJson(back), toJson(r));
  }
  EXPECT_THROW(pairRowFromJson(Json{{"round", 1}}), UsageError);
}

}  // namespace
}  // namespace pf::check

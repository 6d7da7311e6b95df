// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Every rail: --rails parsing, the plan across nodes (a rail missing on one node is named), the per-rail analysis
// (a rail slow on one node names that node and its NIC), the TCP transport of a rail on loopback addresses with
// in-process ranks, and the check's all-reduce sizes for a given link rate.
#include "rails.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "allreduce_verdict.hpp"
#include "pair_analysis.hpp"
#include "pair_fixtures.hpp"
#include "pf/error.hpp"
#include "rail_sockets.hpp"

namespace pf::check {
namespace {

using ::testing::HasSubstr;
using testing::makeMatrix;

TEST(Rails, ParsesFirstAllAndLists) {
  EXPECT_FALSE(parseRailSpec("first").several());
  EXPECT_EQ(parseRailSpec("all").mode, RailSpec::Mode::kAll);
  RailSpec l = parseRailSpec("ib0,mlx5_1:1");
  EXPECT_EQ(l.mode, RailSpec::Mode::kList);
  EXPECT_EQ(l.names, (std::vector<std::string>{"ib0", "mlx5_1:1"}));
  EXPECT_THROW(parseRailSpec("ib0,,ib1"), UsageError);
  EXPECT_THROW(parseRailSpec(""), UsageError);
  EXPECT_THROW(parseRailSpec("ib0 ib1"), UsageError);
}

TEST(Rails, AListedNameThatIsNotHereKeepsItsPlaceMarkedUnusable) {
  // "lo" exists with 127.0.0.1 on every Linux host; the other name does not.
  auto rails = discoverRails(parseRailSpec("lo,pfnosuch9"), "/nonexistent-root");
  ASSERT_EQ(rails.size(), 2u);
  EXPECT_EQ(rails[0].address, "127.0.0.1");
  EXPECT_TRUE(rails[0].unusable.empty());
  EXPECT_EQ(rails[1].nic, "pfnosuch9");
  EXPECT_THAT(rails[1].unusable, HasSubstr("no interface"));
}

// Runs planRails on thread ranks, one per host, each with its own rails.
std::vector<RailPlan> planOnThreads(const std::vector<std::string>& hosts,
                                    const std::vector<std::vector<Rail>>& rails) {
  const int n = static_cast<int>(hosts.size());
  auto boots = makeThreadBootstraps(n);
  std::vector<RailPlan> out(static_cast<size_t>(n));
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] {
      out[static_cast<size_t>(r)] = planRails(*boots[static_cast<size_t>(r)], hosts, rails[static_cast<size_t>(r)]);
    });
  for (auto& t : threads) t.join();
  return out;
}

TEST(Rails, PlanDropsARailDownOnOneNodeAndNamesIt) {
  const Rail up0{"mlx5_0 port 1 (ib0)", "ib0", "10.0.0.1", ""}, up1{"mlx5_1 port 1 (ib1)", "ib1", "10.0.1.1", ""};
  Rail down1 = up1;
  down1.unusable = "the port is not ACTIVE";
  auto plans = planOnThreads({"a", "b", "c"}, {{up0, up1}, {up0, down1}, {up0}});
  for (const RailPlan& p : plans) {
    EXPECT_EQ(p.count, 1);
    ASSERT_EQ(p.findings.size(), 2u);
    EXPECT_EQ(p.findings[0].hosts, std::vector<std::string>{"b"});
    EXPECT_EQ(p.findings[0].message, "b: rail 1 (mlx5_1 port 1 (ib1)) cannot be tested: the port is not ACTIVE");
    EXPECT_EQ(p.findings[1].message, "c: rail 1 cannot be tested: it has 1 rail(s), others have 2");
    EXPECT_EQ(p.findings[0].status, Status::kFail);
    ASSERT_EQ(p.byRank.size(), 3u);
    EXPECT_EQ(p.byRank[1].size(), 1u);
    EXPECT_EQ(p.byRank[1][0].nic, "mlx5_0 port 1 (ib0)");
  }
}

// A 4-node matrix for each of 4 rails; rail 2 of node1 slow.
std::vector<PairRow> railRows(int slowNode, int slowRail) {
  std::vector<PairRow> rows;
  for (int rail = 0; rail < 4; ++rail) {
    auto m = makeMatrix(4, 1.5, rail == slowRail ? std::set<int>{slowNode} : std::set<int>{});
    for (PairRow& r : m.rows) {
      r.rail = rail;
      r.nic_a = "mlx5_" + std::to_string(rail) + " port 1";
      r.nic_b = r.nic_a;
      rows.push_back(r);
    }
  }
  return rows;
}

TEST(RailAnalysis, ARailSlowOnOneNodeNamesNodeAndNic) {
  auto rows = railRows(1, 2);
  auto m = makeMatrix(4, 1.5);
  PairAnalysis a = analyzePairsByRail(rows, m.nodes, PairLimits{});
  ASSERT_EQ(a.findings.size(), 1u);
  const Finding& f = a.findings[0];
  EXPECT_EQ(f.check, "pairs.node_bandwidth");
  EXPECT_EQ(f.hosts, std::vector<std::string>{"node1"});
  EXPECT_THAT(f.message, HasSubstr("rail 2 (node1 mlx5_2 port 1): node1: 3 of its 3 pairs are slow"));
  EXPECT_THAT(f.remedy, HasSubstr("the slow rail is node1 mlx5_2 port 1"));
  EXPECT_EQ(a.status, Status::kFail);
  for (const PairRow& r : rows)
    EXPECT_EQ(r.status == Status::kFail, r.rail == 2 && (r.node_a == 1 || r.node_b == 1)) << r.rail;
}

TEST(RailAnalysis, HealthyRailsHaveNoFindings) {
  auto rows = railRows(-1, -1);
  PairAnalysis a = analyzePairsByRail(rows, makeMatrix(4, 1.5).nodes, PairLimits{});
  EXPECT_TRUE(a.findings.empty());
  EXPECT_EQ(a.status, Status::kPass);
}

// Two ranks, two rails on 127.0.0.1 and 127.0.0.2 (both loopback): bytes and values cross each rail's connection,
// each end learns the other's NIC names, and a rail's connection is made once.
TEST(RailSockets, MovesBytesOverEachRail) {
  auto boots = makeThreadBootstraps(2);
  RailPlan plan;
  plan.count = 2;
  plan.byRank = {{{"r0a", "", "127.0.0.1", ""}, {"r1a", "", "127.0.0.2", ""}},
                 {{"r0b", "", "127.0.0.1", ""}, {"r1b", "", "127.0.0.2", ""}}};
  std::vector<std::string> got(2);
  std::vector<std::string> nics(2);
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r)
    threads.emplace_back([&, r] {
      RailSockets s;
      s.open(*boots[static_cast<size_t>(r)], plan);
      const int peer = 1 - r;
      for (int rail = 0; rail < 2; ++rail) {
        s.select(rail);
        s.connect(peer, r == 0);
        s.connect(peer, r == 0);  // already connected: a no-op
        std::string msg = "rail" + std::to_string(rail) + "-from-" + std::to_string(r);
        std::string in(msg.size(), '?');
        if (r == 0) {
          s.send(peer, msg.data(), msg.size());
          s.recv(peer, in.data(), in.size());
        } else {
          s.recv(peer, in.data(), in.size());
          s.send(peer, msg.data(), msg.size());
        }
        got[static_cast<size_t>(r)] += in + ";";
      }
      nics[static_cast<size_t>(r)] = s.nic(peer, 1);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(got[0], "rail0-from-1;rail1-from-1;");
  EXPECT_EQ(got[1], "rail0-from-0;rail1-from-0;");
  EXPECT_EQ(nics[0], "r1b");
  EXPECT_EQ(nics[1], "r1a");
}

TEST(AllReduceSizes, LargestIsBandwidthBoundOnTheLinkRate) {
  const AllReduceLimits l;  // bandwidth_bound_factor 4
  // Unknown rate (TCP, veth): 512 KiB as before, quick 8 B, 2 KiB, 512 KiB.
  AllReduceSizes none = allReduceSizes(std::nullopt, l, true);
  EXPECT_EQ(none.maxBytes, 512u << 10);
  EXPECT_EQ(none.stepFactor, 256u);
  EXPECT_EQ(allReduceSizes(std::nullopt, l, false).stepFactor, 16u);
  // NDR, 400 Gbit/s = 50 GB/s: 4 x 50 GB/s x 5 us = 1 MB -> quick 8 B, 4 KiB, 2 MiB; full x16 up to 8 MiB.
  AllReduceSizes ndr = allReduceSizes(50.0, l, true);
  EXPECT_EQ(ndr.maxBytes, 2u << 20);
  EXPECT_EQ(ndr.stepFactor, 512u);
  EXPECT_THAT(ndr.why, HasSubstr("50.0 GB/s"));
  EXPECT_EQ(allReduceSizes(50.0, l, false).maxBytes, 8u << 20);
  // HDR, 25 GB/s: 500 KB fits under 512 KiB.
  EXPECT_EQ(allReduceSizes(25.0, l, true).maxBytes, 512u << 10);
  // XDR x8 rails would ask for 32 MB: capped at 8 MiB, and said so.
  AllReduceSizes big = allReduceSizes(800.0, l, true);
  EXPECT_EQ(big.maxBytes, 8u << 20);
  EXPECT_EQ(big.stepFactor, 1024u);
  EXPECT_THAT(big.why, HasSubstr("capped at 8 MiB"));
}

}  // namespace
}  // namespace pf::check

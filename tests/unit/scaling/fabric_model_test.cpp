// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "fabric_model.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "pf/error.hpp"
#include "test_levels.hpp"

using namespace pf::scaling;
using pf::scaling::testing::level;

namespace {

// Intra-node: 1 us, 0.1 ns/B (10 GB/s); inter-node: 20 us, 4 ns/B (250 MB/s).
FabricModel twoLevels() { return fabricModelFromLevels({level(1, 1e-4, 2, 1, 0.02), level(20, 4e-3, 4, 2, 0.05)}); }

}  // namespace

TEST(FabricModel, ParsesAllocations) {
  Allocation a = parseAllocation("8x16", 4);
  EXPECT_EQ(a.nodes, 8);
  EXPECT_EQ(a.ranksPerNode, 16);
  EXPECT_EQ(a.label(), "8x16");
  a = parseAllocation("64", 8);  // a plain count is laid out as the measured run: 8 to a node
  EXPECT_EQ(a.nodes, 8);
  EXPECT_EQ(a.ranksPerNode, 8);
  a = parseAllocation("6", 4);  // 6 ranks at 4 to a node need 2 nodes
  EXPECT_EQ(a.nodes, 2);
  for (const char* bad : {"", "x", "8x", "0x2", "2x-1", "abc", "3.5", "4x2x1"})
    EXPECT_THROW(parseAllocation(bad, 2), pf::UsageError) << bad;
}

TEST(FabricModel, OneNodeUsesTheIntraNodeLevel) {
  const FabricModel m = twoLevels();
  const double s = 8 << 20;
  const AllReduceCost c = m.allReduce(s, {1, 4});
  EXPECT_EQ(c.level, "intra-node");
  EXPECT_EQ(c.algorithm, "ring");
  EXPECT_NEAR(c.us, 2.0 * 3 * 1 + 2.0 * 3 / 4 * s * 1e-4, 1e-6);
  EXPECT_DOUBLE_EQ(c.relError, 0.02);
  EXPECT_EQ(m.allReduce(s, {1, 1}).us, 0.0);
}

TEST(FabricModel, AcrossNodesTheRingWaitsForTheNetworkHop) {
  const FabricModel m = twoLevels();
  const double s = 8 << 20;
  // 4 nodes x 2 ranks: 14 steps of S/8 bytes, each as slow as the inter-node hop.
  const AllReduceCost c = m.allReduce(s, {4, 2});
  EXPECT_EQ(c.level, "inter-node");
  EXPECT_EQ(c.algorithm, "ring");
  EXPECT_NEAR(c.us, 14 * (20 + s / 8 * 4e-3), 1e-6);
  EXPECT_NEAR(c.latencyUs, 14 * 20.0, 1e-9);
  EXPECT_DOUBLE_EQ(c.relError, 0.05);
  // Going from 2 to 4 nodes adds steps, not load per hop: the bandwidth term grows only as 2(n-1)/n.
  const double two = m.allReduce(s, {2, 2}).bandwidthUs, four = c.bandwidthUs;
  EXPECT_NEAR(four / two, (14.0 / 8) / (6.0 / 4), 1e-12);
}

TEST(FabricModel, WhatIfSlowerLinksScaleOnlyTheNetworkBandwidth) {
  FabricModel m = twoLevels();
  const double s = 8 << 20;
  const double base = m.allReduce(s, {4, 2}).bandwidthUs, intra = m.allReduce(s, {1, 2}).us;
  m.interBandwidthFactor = 0.25;
  EXPECT_NEAR(m.allReduce(s, {4, 2}).bandwidthUs, 4 * base, 1e-6);
  EXPECT_NEAR(m.allReduce(s, {1, 2}).us, intra, 1e-9);  // inside a node nothing changes
}

TEST(FabricModel, SmallMessagesOnManyNodesTakeTheTree) {
  const FabricModel m = twoLevels();
  const AllReduceCost c = m.allReduce(1024, {512, 8});  // n = 4096: log2 steps beat 8190 ring steps
  EXPECT_EQ(c.algorithm, "tree");
  EXPECT_EQ(c.level, "inter-node");
  EXPECT_NEAR(c.us, 2 * 12 * 20.0 + 2 * 1024 * 4e-3, 1e-9);
}

TEST(FabricModel, RingOnlyCostsTheRingWhereTheTunerWouldTakeTheTree) {
  FabricModel m = twoLevels();
  m.ringOnly = true;  // NCCL_ALGO=Ring: the 4096-rank ring's 8190 steps, not the tree's 24
  const AllReduceCost c = m.allReduce(1024, {512, 8});
  EXPECT_EQ(c.algorithm, "ring");
  EXPECT_NEAR(c.us, 8190 * (20 + 1024.0 / 4096 * 4e-3), 1e-6);
  EXPECT_EQ(m.allReduce(1024, {1, 8}).algorithm, "ring");
}

TEST(FabricModel, ANodeSlowerInsideThanItsNetworkIsNamed) {
  // A pathological node (e.g. GPUs without P2P behind one PCIe switch) slower inside than across the network.
  const FabricModel m = fabricModelFromLevels({level(1, 1e-2, 2, 1), level(20, 4e-3, 4, 2)});
  EXPECT_EQ(m.allReduce(8 << 20, {2, 2}).level, "intra-node");
}

TEST(FabricModel, OneLevelServesEveryAllocationAndTwoOfAKindAreRefused) {
  const FabricModel intraOnly = fabricModelFromLevels({level(1, 1e-4, 2, 1)});
  EXPECT_TRUE(intraOnly.singleLevel());
  EXPECT_EQ(intraOnly.allReduce(1 << 20, {4, 2}).level, "intra-node");
  const FabricModel interOnly = fabricModelFromLevels({level(20, 4e-3, 4, 2)});
  EXPECT_EQ(interOnly.allReduce(1 << 20, {1, 2}).level, "inter-node");
  EXPECT_THROW(fabricModelFromLevels({level(1, 1e-4, 2, 1), level(2, 1e-4, 4, 1)}), pf::UsageError);
  EXPECT_THROW(fabricModelFromLevels({}), pf::UsageError);
}

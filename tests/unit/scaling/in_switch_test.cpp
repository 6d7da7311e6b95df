// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NVLS and CollNet: what a probe document must show for the capacity model to add them, and their costs
// against ring and tree at exact values.
#include "in_switch.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "fabric_model.hpp"
#include "test_levels.hpp"

using namespace pf::scaling;
using pf::Json;
using pf::scaling::testing::level;

namespace {

pf::Result probe(const std::string& key, const std::string& host) {
  pf::Result r;
  r.key = key;
  r.kind = pf::Kind::kProbe;
  r.host = host;
  return r;
}

// A node as `preflight probe --json` describes it: `multicast` GPUs that answer true, `without` that answer
// false; NCCL 2.21.5 with the given settings and CollNet entry point.
void addNode(pf::RunReport& doc, const std::string& host, int multicast, int without, Json settings = Json::object(),
             Json collNet = Json()) {
  pf::Result gpu = probe("probe.gpu", host);
  for (int i = 0; i < multicast + without; ++i)
    gpu.rows.push_back(Json{{"cuda_index", i}, {"multicast_supported", i < multicast}});
  pf::Result nccl = probe("probe.nccl", host);
  nccl.params = Json{{"settings", std::move(settings)}, {"collnet_plugin", std::move(collNet)}};
  nccl.metrics["version_code"] = 22105;
  doc.results.push_back(gpu);
  doc.results.push_back(nccl);
}

// Intra-node: 1 us, 0.1 ns/B; inter-node: 20 us, 4 ns/B (test_levels.hpp).
FabricModel twoLevels(bool nvls, bool collNet) {
  FabricModel m = fabricModelFromLevels({level(1, 1e-4, 2, 1, 0.02), level(20, 4e-3, 4, 2, 0.05)});
  InSwitchReductions s;
  s.nvls = nvls, s.collNet = collNet;
  m.inSwitch = s;
  return m;
}

}  // namespace

TEST(InSwitch, NvlsNeedsMulticastOnEveryGpuOfEveryNode) {
  pf::RunReport doc;
  addNode(doc, "hgx-1", 8, 0);
  addNode(doc, "hgx-2", 8, 0);
  InSwitchReductions s = inSwitchFromProbe(doc, "probe.json");
  EXPECT_TRUE(s.nvls);
  EXPECT_EQ(s.nvlsWhy, "8 GPUs with NVSwitch multicast on each of 2 node(s)");
  EXPECT_EQ(s.source, "probe.json");

  addNode(doc, "hgx-3", 7, 1);  // one GPU's driver says no: NCCL would not build NVLS channels there
  s = inSwitchFromProbe(doc, "probe.json");
  EXPECT_FALSE(s.nvls);
  EXPECT_EQ(s.nvlsWhy, "node hgx-3: 1 of 8 GPUs lack NVSwitch multicast");
}

TEST(InSwitch, NvlsIsOffWhenNcclCannotOrMayNotUseIt) {
  pf::RunReport off;
  addNode(off, "hgx-1", 8, 0, Json{{"NCCL_NVLS_ENABLE", "0"}});
  EXPECT_EQ(inSwitchFromProbe(off, "p").nvlsWhy, "node hgx-1: NCCL_NVLS_ENABLE=0");

  pf::RunReport old;
  addNode(old, "hgx-1", 8, 0);
  old.results[1].metrics["version_code"] = 21606;
  EXPECT_EQ(inSwitchFromProbe(old, "p").nvlsWhy, "node hgx-1: NCCL 21606 predates NVLS (2.17)");

  pf::RunReport one;
  addNode(one, "h100-pcie", 1, 0);
  EXPECT_FALSE(inSwitchFromProbe(one, "p").nvls);

  pf::RunReport unasked;  // no GPU, or a driver too old to answer: never assumed
  addNode(unasked, "cpu-node", 0, 0);
  const InSwitchReductions s = inSwitchFromProbe(unasked, "p");
  EXPECT_FALSE(s.nvls);
  EXPECT_NE(s.nvlsWhy.find("no GPU answered the multicast query"), std::string::npos) << s.nvlsWhy;
  EXPECT_FALSE(inSwitchFromProbe(pf::RunReport{}, "p").nvls);
}

TEST(InSwitch, CollNetNeedsThePluginAndTheSwitchOn) {
  pf::RunReport doc;
  addNode(doc, "ib-1", 8, 0, Json{{"NCCL_COLLNET_ENABLE", "1"}}, "ncclCollNetPlugin_v8");
  InSwitchReductions s = inSwitchFromProbe(doc, "p");
  EXPECT_TRUE(s.collNet);
  EXPECT_EQ(s.collNetWhy, "ncclCollNetPlugin_v8 and NCCL_COLLNET_ENABLE=1 on each of 1 node(s)");

  pf::RunReport offByDefault;
  addNode(offByDefault, "ib-1", 8, 0, Json::object(), "ncclCollNetPlugin_v8");
  s = inSwitchFromProbe(offByDefault, "p");
  EXPECT_FALSE(s.collNet);
  EXPECT_EQ(s.collNetWhy, "node ib-1: NCCL_COLLNET_ENABLE is not 1 (CollNet is off by default)");

  pf::RunReport noPlugin;
  addNode(noPlugin, "ib-1", 8, 0, Json{{"NCCL_COLLNET_ENABLE", "1"}});
  EXPECT_FALSE(inSwitchFromProbe(noPlugin, "p").collNet);
}

TEST(InSwitch, NvlsInsideANodeMovesSAndAnNthPerGpu) {
  const double s = 8 << 20;
  const AllReduceCost c = twoLevels(true, false).allReduce(s, {1, 8});
  EXPECT_EQ(c.algorithm, "nvls");
  EXPECT_TRUE(c.inSwitch);
  EXPECT_EQ(c.level, "intra-node");
  EXPECT_NEAR(c.us, 25.0 + (1 + 1.0 / 8) * s * 1e-4, 1e-6);  // NCCL's 25 us NVLS start-up, not 2 alpha = 2 us
  EXPECT_NEAR(c.latencyUs, 25.0, 1e-12);
  // Against the ring's 2 (n-1)/n: 14/9 = 1.56x less time on the links at 8 GPUs.
  const AllReduceCost ring = twoLevels(false, false).allReduce(s, {1, 8});
  EXPECT_EQ(ring.algorithm, "ring");
  EXPECT_FALSE(ring.inSwitch);
  EXPECT_NEAR(ring.bandwidthUs / c.bandwidthUs, 14.0 / 9.0, 1e-12);
  // One rank per node has no NVLink peer: NVLS does not apply.
  EXPECT_NE(twoLevels(true, false).allReduce(s, {4, 1}).algorithm, "nvls_tree");
  // With the intra-node level alone standing in for every allocation, NVLS stays inside one node.
  FabricModel intraOnly = fabricModelFromLevels({level(1, 1e-4, 2, 1)});
  intraOnly.inSwitch = InSwitchReductions{true, false, "", "", ""};
  EXPECT_EQ(intraOnly.allReduce(s, {1, 8}).algorithm, "nvls");
  EXPECT_EQ(intraOnly.allReduce(s, {4, 8}).algorithm, "ring");
}

TEST(InSwitch, CollNetSendsEachNodesBytesThroughItsNicsOnce) {
  const double s = 8 << 20;
  // 4 nodes x 2 ranks: the ring moves 2 (n-1)/n S = 1.75 S through each node's NICs, CollNet S.
  const AllReduceCost c = twoLevels(false, true).allReduce(s, {4, 2});
  EXPECT_EQ(c.algorithm, "collnet");
  EXPECT_EQ(c.level, "inter-node");
  EXPECT_TRUE(c.inSwitch);
  EXPECT_NEAR(c.us, 2 * 20.0 + 2 * 1 * 1.0 + s * 4e-3, 1e-6);
  EXPECT_DOUBLE_EQ(c.relError, 0.05);
  // Without it, the same allocation is the ring's, as before.
  EXPECT_NEAR(twoLevels(false, false).allReduce(s, {4, 2}).us, 14 * (20 + s / 8 * 4e-3), 1e-6);
}

TEST(InSwitch, NvlsTreeWinsOnLatencyAcrossNodes) {
  const double s = 64 << 10;
  // 4 nodes x 8: NVLS_TREE max(25 us, 2 alpha_intra) + 2 log2(4) alpha_inter + S max(9/8 beta_intra,
  // 2 beta_inter), against the ring's 62 steps and the tree's 2 log2(32) alpha_inter.
  const AllReduceCost c = twoLevels(true, false).allReduce(s, {4, 8});
  EXPECT_EQ(c.algorithm, "nvls_tree");
  EXPECT_EQ(c.level, "inter-node");
  EXPECT_NEAR(c.us, 25.0 + 2 * 2 * 20.0 + s * 2 * 4e-3, 1e-6);
  EXPECT_EQ(twoLevels(false, false).allReduce(s, {4, 8}).algorithm, "tree");
}

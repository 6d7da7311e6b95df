// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nic_rates.hpp"

#include <gtest/gtest.h>

#include "capacity_plan.hpp"
#include "fabric_model.hpp"
#include "pf/error.hpp"
#include "pf/report_io.hpp"
#include "test_levels.hpp"

using namespace pf::scaling;
using pf::Json;
using pf::scaling::testing::level;

namespace {

pf::Result probe(const std::string& key, const std::string& host, Json params, Json rows) {
  pf::Result r;
  r.key = key;
  r.kind = pf::Kind::kProbe;
  r.host = host;
  r.params = std::move(params);
  r.rows = std::move(rows);
  return r;
}

Json port(const std::string& dev, const std::string& state, double gbit) {
  return Json{{"device", dev}, {"port", 1}, {"state", state}, {"rate_gbit", gbit}};
}

pf::Result ib(const std::string& host, double lastRate) {
  return probe("probe.ib", host, Json{{"nccl_ib_ports", {"mlx5_0:1", "mlx5_1:1"}}},
               Json::array({port("mlx5_0", "ACTIVE", 400), port("mlx5_1", "ACTIVE", lastRate)}));
}

}  // namespace

// The golden probe document (tests/fixtures/ib-ndr-8hca): NCCL_IB_HCA lists mlx5_0..mlx5_7 without '=', so
// NCCL's prefix match also takes the RoCE ports mlx5_10 and mlx5_11; mlx5_7 trained down to 200 Gb/s.
TEST(NicRates, TheIbPortsNcclSelectsAtTheirOwnRates) {
  const std::string path = PF_SOURCE_DIR "/tests/golden/documents/probe.json";
  const NicSet s = nicsFromProbe(pf::readReport(path), path);
  EXPECT_EQ(s.transport, "InfiniBand/RoCE");
  ASSERT_EQ(s.names.size(), 10u);
  EXPECT_NE(std::find(s.names.begin(), s.names.end(), "mlx5_10:1"), s.names.end());
  EXPECT_DOUBLE_EQ(s.gbitTotal, 7 * 400 + 200 + 2 * 400);
  EXPECT_DOUBLE_EQ(s.bytesPerUs(), 3800 * 125.0);
  EXPECT_EQ(s.host, "dgx-h100-017");
  EXPECT_EQ(s.caveat.rfind("probe.ib: ", 0), 0u) << s.caveat;  // the probe warned about these ports
}

TEST(NicRates, EfaDevicesComeBeforeSocketsAndDownPortsDoNotCount) {
  pf::RunReport doc;
  doc.results.push_back(probe("probe.efa", "p4d-1", Json::object(),
                              Json::array({port("rdmap16s27", "ACTIVE", 100), port("rdmap32s27", "ACTIVE", 100),
                                           port("rdmap48s27", "DOWN", 100)})));
  doc.results.push_back(probe("probe.net", "p4d-1", Json{{"nccl_socket_interfaces", {"ens32"}}},
                              Json::array({Json{{"name", "ens32"}, {"operstate", "up"}, {"speed_mbps", 100000}}})));
  const NicSet s = nicsFromProbe(doc, "p4d.json");
  EXPECT_EQ(s.transport, "EFA");
  EXPECT_EQ(s.names, (std::vector<std::string>{"rdmap16s27:1", "rdmap32s27:1"}));
  EXPECT_DOUBLE_EQ(s.gbitTotal, 200);
}

TEST(NicRates, SocketInterfacesWithoutASpeedAreLeftOut) {
  pf::RunReport doc;
  doc.results.push_back(probe("probe.net", "vm", Json{{"nccl_socket_interfaces", {"eth0", "eth1"}}},
                              Json::array({Json{{"name", "eth0"}, {"operstate", "up"}, {"speed_mbps", 25000}},
                                           Json{{"name", "eth1"}, {"operstate", "up"}, {"speed_mbps", nullptr}}})));
  const NicSet s = nicsFromProbe(doc, "vm.json");
  EXPECT_EQ(s.transport, "sockets");
  EXPECT_EQ(s.names, std::vector<std::string>{"eth0"});
  EXPECT_DOUBLE_EQ(s.gbitTotal, 25);
}

TEST(NicRates, ADocumentOfSeveralNodesGivesTheSlowestNode) {
  pf::RunReport doc;
  doc.results.push_back(ib("node1", 400));
  doc.results.push_back(ib("node2", 100));  // one port trained down
  doc.results.push_back(ib("node3", 400));
  const NicSet s = nicsFromProbe(doc, "all.json");
  EXPECT_EQ(s.host, "node2");
  EXPECT_EQ(s.hosts, 3);
  EXPECT_DOUBLE_EQ(s.gbitTotal, 500);
}

TEST(NicRates, NoNicWithARateIsAUsageErrorNamingTheFile) {
  pf::RunReport none;  // not a probe document at all
  EXPECT_THROW(nicsFromProbe(none, "sweep.json"), pf::UsageError);
  pf::RunReport vm;  // this build machine: virtio reports no speed
  vm.results.push_back(probe("probe.net", "vm", Json{{"nccl_socket_interfaces", {"eth0"}}},
                             Json::array({Json{{"name", "eth0"}, {"operstate", "up"}, {"speed_mbps", nullptr}}})));
  try {
    nicsFromProbe(vm, "vm.json");
    FAIL() << "no NIC with a rate was accepted";
  } catch (const pf::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--nics vm.json"), std::string::npos) << e.what();
  }
}

// Without an inter-node sweep the NICs stand in for the network: their summed line rate, the intra-node latency.
TEST(NicRates, LineRateStandsInForAMissingInterNodeSweep) {
  FabricModel m = fabricModelFromLevels({level(1, 1e-4, 2, 1, 0.02)});
  NicSet n;
  n.transport = "InfiniBand/RoCE";
  n.names = {"mlx5_0:1", "mlx5_1:1"};
  n.gbitTotal = 800;  // 100,000 bytes/us
  addNics(m, n);
  ASSERT_TRUE(m.inter.has_value());
  EXPECT_TRUE(m.interFromLineRate);
  EXPECT_EQ(lineRateFraction(m), 0.0);  // nothing measured to compare
  const double s = 8 << 20;
  // 4 nodes x 2 ranks: the intra-node hop (0.1 ns/B) is slower than 800 Gb/s (0.01 ns/B), so it bounds the ring.
  const AllReduceCost c = m.allReduce(s, {4, 2});
  EXPECT_EQ(c.level, "intra-node");
  // With one rank per node only the network is left: 6 steps of S/4 at line rate, 1 us each.
  EXPECT_NEAR(m.allReduce(s, {4, 1}).us, 6 * (1 + s / 4 / 100000.0), 1e-6);
}

TEST(NicRates, AMeasuredInterNodeFitIsComparedWithTheLineRate) {
  FabricModel m = fabricModelFromLevels({level(1, 1e-4, 2, 1), level(20, 4e-3, 4, 2)});  // 250 bytes/us
  NicSet n;
  n.gbitTotal = 4;  // 500 bytes/us
  addNics(m, n);
  EXPECT_FALSE(m.interFromLineRate);
  EXPECT_DOUBLE_EQ(m.inter->fit.large.betaUsPerB, 4e-3);  // the measurement is kept
  EXPECT_NEAR(lineRateFraction(m), 0.5, 1e-12);
}

// A sweep that moved more than the NICs can carry did not cross them: the plan warns instead of trusting it.
TEST(NicRates, AnInterNodeSweepFasterThanTheNicsWarns) {
  FabricModel m = fabricModelFromLevels({level(1, 1e-4, 2, 1), level(20, 4e-3, 4, 2)});
  NicSet n;
  n.gbitTotal = 1;  // 125 bytes/us, half of what the sweep moved
  addNics(m, n);
  TrainerSpec spec;
  spec.model = {256, 512, 4, 16, 1};
  const Json row{{"ranks", 2},
                 {"nodes", 1},
                 {"batch_per_rank", 4},
                 {"step_us_p50", 1300},
                 {"compute_us", 1000},
                 {"exposed_comm_us", 200},
                 {"throughput_sps", {{"median", 6153.8}, {"min", 6000}, {"max", 6300}}}};
  pf::Result r;
  addCapacityPlan(r, Json::array({row}), spec, m, {"4x2"});
  EXPECT_EQ(r.status, pf::Status::kWarn);
  EXPECT_NE(r.remedy.find("more than the 1 Gb/s"), std::string::npos) << r.remedy;
  EXPECT_DOUBLE_EQ(r.metrics["model"]["inter_node"]["line_rate_fraction"].get<double>(), 2.0);
}

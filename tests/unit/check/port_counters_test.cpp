// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Fabric health: the RDMA ports' error counters read from captured trees, the deltas judged, and the collective
// watch around a phase on in-process ranks, with the counter files changed between its two readings as a flapping
// link's would.
#include "port_counters.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "../probes/temp_tree.hpp"

namespace pf::check {
namespace {

using probes::test::TempTree;
using ::testing::HasSubstr;

// One port's counters as sysfs lays them out.
void writePort(TempTree& t, const std::string& dev, int port, const std::map<std::string, int>& counters,
               const std::map<std::string, int>& hw = {}) {
  const std::string d = "/sys/class/infiniband/" + dev + "/ports/" + std::to_string(port);
  t.file(d + "/state", "4: ACTIVE").file(d + "/rate", "400 Gb/sec (4X NDR)").file(d + "/link_layer", "InfiniBand");
  for (const auto& [k, v] : counters) t.file(d + "/counters/" + k, std::to_string(v));
  for (const auto& [k, v] : hw) t.file(d + "/hw_counters/" + k, std::to_string(v));
}

const std::map<std::string, int> kQuiet = {{"symbol_error", 0},       {"link_downed", 0},  {"link_error_recovery", 0},
                                           {"port_rcv_errors", 0},    {"VL15_dropped", 7}, {"port_xmit_discards", 0},
                                           {"port_xmit_data", 123456}};

TEST(PortCounters, ReadsTheJudgedCountersOfEveryPort) {
  TempTree t;
  writePort(t, "mlx5_1", 1, kQuiet, {{"local_ack_timeout_err", 4}, {"out_of_buffer", 9}});
  writePort(t, "mlx5_0", 1, {{"symbol_error", 3}, {"link_downed", 1}});
  auto ports = readPortCounters(t.root().string());
  ASSERT_TRUE(ports.has_value());
  ASSERT_EQ(ports->size(), 2u);
  EXPECT_EQ((*ports)[0].device, "mlx5_0");
  EXPECT_EQ((*ports)[0].linkLayer, "InfiniBand");
  EXPECT_EQ((*ports)[0].values, (std::map<std::string, uint64_t>{{"link_downed", 1}, {"symbol_error", 3}}));
  // Data counters and VL15 drops are not error signals: not kept; a judged hw counter is.
  EXPECT_EQ((*ports)[1].values.count("port_xmit_data"), 0u);
  EXPECT_EQ((*ports)[1].values.count("VL15_dropped"), 0u);
  EXPECT_EQ((*ports)[1].values.count("out_of_buffer"), 0u);
  EXPECT_EQ((*ports)[1].values.at("local_ack_timeout_err"), 4u);
  EXPECT_EQ((*ports)[1].values.at("port_rcv_errors"), 0u);
}

TEST(PortCounters, RisesDuringThePhaseAreFindingsNamingNodeDevicePort) {
  TempTree before, after;
  writePort(before, "mlx5_0", 1, kQuiet);
  writePort(before, "mlx5_3", 1, kQuiet);
  auto risen = kQuiet;
  risen["symbol_error"] = 12;        // fails from 10
  risen["link_error_recovery"] = 1;  // fails from 1
  risen["port_xmit_discards"] = 5;   // congestion: warns
  writePort(after, "mlx5_0", 1, kQuiet);
  writePort(after, "mlx5_3", 1, risen);
  auto f =
      judgePortCounters("node7", *readPortCounters(before.root().string()), *readPortCounters(after.root().string()));
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].status, Status::kFail);
  EXPECT_EQ(f[0].check, "fabric.port_counters");
  EXPECT_EQ(f[0].hosts, std::vector<std::string>{"node7"});
  EXPECT_EQ(f[0].message,
            "node7: mlx5_3 port 1 symbol_error rose by 12 during the pair phase (0 -> 12): symbol errors: bits the "
            "receiver could not decode on the physical link (a marginal cable, transceiver or connector; a handful a "
            "day is tolerated, a burst within seconds is not)");
  EXPECT_THAT(f[0].remedy, HasSubstr("reseat or replace the cable or transceiver of node7 mlx5_3 port 1"));
  EXPECT_THAT(f[0].remedy, HasSubstr("perfquery"));
  EXPECT_THAT(f[0].remedy, HasSubstr("ibdiagnet"));
  ASSERT_EQ(f[0].evidence.size(), 3u);
  EXPECT_EQ(f[0].evidence[2].what, "rise");
  EXPECT_EQ(f[0].evidence[2].value, 12.0);
  EXPECT_EQ(f[0].evidence[2].source, "node7 mlx5_3 port 1 counters/symbol_error");
  EXPECT_EQ(f[1].status, Status::kFail);
  EXPECT_THAT(f[1].message, HasSubstr("link_error_recovery rose by 1"));
  EXPECT_EQ(f[2].status, Status::kWarn);
  EXPECT_THAT(f[2].message, HasSubstr("port_xmit_discards rose by 5"));
  EXPECT_THAT(f[2].remedy, HasSubstr("congestion"));
}

TEST(PortCounters, FewSymbolErrorsWarnAndFallingOrMissingCountersAreNotJudged) {
  TempTree before, after;
  auto b = kQuiet, a = kQuiet;
  b["port_rcv_errors"] = 40;  // cleared (perfquery -R) between the readings: 40 -> 2 is no rise
  a["port_rcv_errors"] = 2;
  a["symbol_error"] = 2;
  writePort(before, "mlx5_0", 1, b);
  writePort(after, "mlx5_0", 1, a);
  writePort(after, "mlx5_9", 1, {{"symbol_error", 500}});  // appeared after the first reading: no baseline
  auto f = judgePortCounters("n1", *readPortCounters(before.root().string()), *readPortCounters(after.root().string()));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].status, Status::kWarn);
  EXPECT_THAT(f[0].message, HasSubstr("mlx5_0 port 1 symbol_error rose by 2"));
}

TEST(PortCounters, LinkDownedSinceClearedWarnsOnceWithoutARise) {
  TempTree t;
  auto c = kQuiet;
  c["link_downed"] = 3;
  writePort(t, "mlx5_2", 1, c);
  auto ports = *readPortCounters(t.root().string());
  auto f = judgePortCounters("n2", ports, ports);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].status, Status::kWarn);
  EXPECT_EQ(f[0].check, "fabric.link_downed_before");
  EXPECT_EQ(f[0].message,
            "n2: mlx5_2 port 1 went down 3 time(s) since its counters were last cleared (not during "
            "this run)");
}

TEST(PortCounters, NoPortsNoFindings) {
  TempTree t;
  t.dir("/sys/class");
  auto ports = readPortCounters(t.root().string());
  ASSERT_TRUE(ports.has_value());
  EXPECT_TRUE(ports->empty());
  EXPECT_TRUE(judgePortCounters("n", *ports, *ports).empty());
}

// The watch as the check runs it: two nodes of two ranks each, both leaders reading the same tree; the counter
// files change between the two readings.
TEST(PortCounters, WatchGathersEveryNodesRiseToEveryRank) {
  TempTree t;
  writePort(t, "mlx5_0", 1, kQuiet);
  const std::vector<std::string> hosts = {"a", "a", "b", "b"};
  auto boots = makeThreadBootstraps(4);
  std::vector<PortCounterWatch::Outcome> out(4);
  std::vector<std::thread> threads;
  for (int r = 0; r < 4; ++r)
    threads.emplace_back([&, r] {
      Bootstrap& boot = *boots[static_cast<size_t>(r)];
      PortCounterWatch watch(boot, hosts, t.root().string());
      boot.barrier();
      if (r == 0) {  // the phase: the link flaps once
        auto c = kQuiet;
        c["link_downed"] = 1;
        writePort(t, "mlx5_0", 1, c);
      }
      boot.barrier();
      out[static_cast<size_t>(r)] = watch.finish();
    });
  for (auto& th : threads) th.join();
  for (const auto& o : out) {
    EXPECT_EQ(o.nodes, 2);
    EXPECT_EQ(o.ports, 2);
    ASSERT_EQ(o.findings.size(), 2u);
    EXPECT_EQ(o.findings[0].hosts, std::vector<std::string>{"a"});
    EXPECT_EQ(o.findings[1].hosts, std::vector<std::string>{"b"});
    EXPECT_THAT(o.findings[0].message, HasSubstr("mlx5_0 port 1 link_downed rose by 1"));
    EXPECT_EQ(o.summary,
              "2 RDMA port(s) on 2 node(s) read before and after the pair phase; error counters rose on a, b");
  }
}

}  // namespace
}  // namespace pf::check

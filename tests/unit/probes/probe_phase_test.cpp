// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The probe phase of `preflight check` on in-process ranks of this machine: a rank with a nonexistent
// NCCL_SOCKET_IFNAME becomes a failing finding about its node that names the variable.
#include "probe_phase.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "pf/bootstrap.hpp"
#include "temp_tree.hpp"

namespace pf::check {
namespace {

std::vector<ProbePhase> runPhase(int n, int odd) {
  auto boots = makeThreadBootstraps(n);
  std::vector<ProbePhase> phases(n);
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] {
      Environment env;
      if (r == odd) env.set("NCCL_SOCKET_IFNAME", "bogus0");
      phases[r] = runProbePhase(*boots[r], LauncherEnv{}, env, true);
    });
  for (auto& t : threads) t.join();
  return phases;
}

TEST(CheckProbePhase, HealthyRanksHaveNoFailingFinding) {
  auto phases = runPhase(2, -1);
  ASSERT_TRUE(phases[0].available);
  EXPECT_FALSE(phases[0].results.empty());
  for (const auto& f : phases[0].findings) EXPECT_NE(f.status, Status::kFail) << f.message;
  EXPECT_TRUE(phases[1].results.empty());  // only rank 0 holds the gathered results
  EXPECT_TRUE(phases[0].links.empty());    // no active InfiniBand/RoCE port here: no link rates to offer
  // Both ranks probed the same host with the same results: the document keeps one copy.
  for (const auto& r : phases[0].results) EXPECT_EQ(r.rank, 0) << r.key;
}

TEST(CheckProbePhase, BadIfnameIsAFailingFindingNamingNodeAndVariable) {
  auto phases = runPhase(3, 2);
  const Finding* net = nullptr;
  for (const auto& f : phases[0].findings)
    if (f.check == "probe.net" && f.status == Status::kFail) net = &f;
  ASSERT_NE(net, nullptr);
  ASSERT_EQ(net->hosts.size(), 1u);
  EXPECT_EQ(net->hosts[0], hostName());
  EXPECT_NE(net->message.find("NCCL_SOCKET_IFNAME=bogus0"), std::string::npos) << net->message;
  EXPECT_NE(net->remedy.find("NCCL_SOCKET_IFNAME"), std::string::npos);
  bool consistency = false;
  for (const auto& f : phases[0].findings) consistency |= f.check == "consistency.env.nccl_socket_ifname";
  EXPECT_TRUE(consistency);
  bool rank2 = false;  // the odd rank's results stay in the document, since they differ from its host's first rank
  for (const auto& r : phases[0].results) rank2 |= r.rank == 2;
  EXPECT_TRUE(rank2);
}

// Issue 45: Xid lines in a captured kernel log (ROOT/dev/kmsg) are a finding on that node, with NVIDIA's action.
TEST(CheckProbePhase, XidLinesInACapturedKernelLogFailTheNodeWithTheRemedy) {
  probes::test::TempTree t;
  t.file("/proc/sys/kernel/hostname", "gpu-node-7");
  t.dir("/sys/module/nvidia");
  t.file("/dev/kmsg", "4,1002,7000000,-;NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', GPU has fallen off the bus.");
  auto boots = makeThreadBootstraps(1);
  ProbeInput input;
  input.root = t.root().string();
  ProbePhase phase = runProbePhase(*boots[0], LauncherEnv{}, Environment(), true, input);
  const Finding* xid = nullptr;
  for (const auto& f : phase.findings)
    if (f.check == "probe.gpu_xid") xid = &f;
  ASSERT_NE(xid, nullptr);
  EXPECT_EQ(xid->status, Status::kFail);
  EXPECT_EQ(xid->hosts, std::vector<std::string>{"gpu-node-7"});
  EXPECT_NE(xid->message.find("Xid 79 (GPU has fallen off the bus) on GPU 0000:3b:00"), std::string::npos)
      << xid->message;
  EXPECT_NE(xid->remedy.find("power-cycle"), std::string::npos) << xid->remedy;
}

}  // namespace
}  // namespace pf::check

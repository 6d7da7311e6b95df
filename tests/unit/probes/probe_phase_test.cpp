// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The probe phase of `preflight check` on in-process ranks of this machine: a rank with a nonexistent
// NCCL_SOCKET_IFNAME becomes a failing finding about its node that names the variable; with `--profile auto`
// the picked profiles' [expect] reaches the measured phases' limits on every rank, as `--profile NAME` does.
#include "probe_phase.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <thread>

#include "pf/bootstrap.hpp"
#include "profile/node_profile.hpp"
#include "profile/profile_catalog.hpp"
#include "temp_tree.hpp"

namespace pf::check {
namespace {

// The phase on n in-process ranks, each rank's arguments from `args(rank, launcher, env, input)`.
std::vector<ProbePhase> onRanks(int n, const std::function<void(int, LauncherEnv&, Environment&, ProbeInput&)>& args) {
  auto boots = makeThreadBootstraps(n);
  std::vector<ProbePhase> phases(n);
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] {
      LauncherEnv launcher;
      Environment env;
      ProbeInput input;
      args(r, launcher, env, input);
      phases[r] = runProbePhase(*boots[r], launcher, env, true, input);
    });
  for (auto& t : threads) t.join();
  return phases;
}

std::vector<ProbePhase> runPhase(int n, int odd) {
  return onRanks(n, [&](int r, LauncherEnv&, Environment& env, ProbeInput&) {
    if (r == odd) env.set("NCCL_SOCKET_IFNAME", "bogus0");
  });
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

// The pair matrix is judged on every rank, which agree without talking on which pairs to measure again: every rank
// must hold the link rates the expectation comes from, as rank 0 does (else rank 0 alone retests a pair).
TEST(CheckProbePhase, EveryRankHoldsTheLinkRatesOfTheExpectation) {
  auto phases = onRanks(3, [](int, LauncherEnv&, Environment&, ProbeInput& input) {
    input.root = std::string(PF_FIXTURES) + "/ib-ndr-8hca";
  });
  ASSERT_EQ(phases[0].links.size(), 1u);
  EXPECT_EQ(phases[0].links[0].host, "dgx-h100-017");
  EXPECT_FALSE(phases[0].links[0].portRatesGbit.empty());
  for (int r = 1; r < 3; ++r) {
    ASSERT_EQ(phases[r].links.size(), 1u) << r;
    EXPECT_EQ(phases[r].links[0].host, phases[0].links[0].host);
    EXPECT_EQ(phases[r].links[0].portRatesGbit, phases[0].links[0].portRatesGbit);
    EXPECT_TRUE(phases[r].results.empty());  // the document's results stay rank 0's
  }
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

// A stand-in for a built-in profile that declares [expect] (the shipped ones declare none: no source states one).
probes::NodeProfile candidate(const std::string& name, const std::string& match, const std::string& expect) {
  probes::NodeProfile p = probes::parseNodeProfile(
      "[profile]\nname = \"" + name + "\"\n[match]\n" + match + "\n[expect]\n" + expect + "\n", "built-in " + name);
  p.meta.name = name;
  return p;
}

const std::string kAzure = "hyperv_vmbus = true\ngpu_count = 8\nib_rate_gbit = 200";
const std::string kAws = "product_name = \"p4d.24xlarge\"";

// Each rank probes its own captured tree under --profile auto with these candidates.
std::vector<ProbePhase> runAuto(const std::vector<std::string>& trees, std::vector<probes::NodeProfile> candidates) {
  auto profile = std::make_shared<probes::NodeProfile>(probes::resolveProfile("auto"));
  profile->candidates = std::move(candidates);
  return onRanks(static_cast<int>(trees.size()), [&](int r, LauncherEnv& launcher, Environment&, ProbeInput& input) {
    input.root = std::string(PF_FIXTURES) + "/" + trees[r];
    input.profile = profile;
    launcher.local_rank = 1;  // not the node's first rank: no "picked" line on stderr from the test
  });
}

TEST(CheckProbePhase, AutoAppliesThePickedProfilesExpectLikeTheProfileByName) {
  const auto azure = candidate("test-azure", kAzure, "pair_busbw_gbs = 12.5\nallreduce_busbw_gbs = 20");
  auto phases = runAuto({"azure-ndv4", "azure-ndv4"}, {azure, candidate("test-aws", kAws, "pair_busbw_gbs = 9")});
  for (const ProbePhase& p : phases) {  // every rank holds the same figures: the pair phase runs on all of them
    EXPECT_EQ(p.declared.pairBusbwGbs, 12.5);
    EXPECT_EQ(p.declared.allreduceBusbwGbs, 20);
    EXPECT_EQ(p.declared.source, "built-in test-azure, picked by --profile auto on every node");
    EXPECT_TRUE(p.declared.note.empty()) << p.declared.note;
  }
  // The limits the measured phases get are those of `--profile test-azure`, but for the source they name.
  Thresholds byAuto, byName;
  applyDeclared(phases[1].declared, byAuto);
  byName.pairs.declaredBwGbps = azure.expect.pairBusbwGbs;
  byName.allreduce.declaredBusbwGbps = azure.expect.allreduceBusbwGbs;
  EXPECT_EQ(byAuto.toJson(), byName.toJson());
  EXPECT_EQ(byAuto.pairs.declaredSource, phases[0].declared.source);
}

TEST(CheckProbePhase, AutoOnMixedNodesTakesTheLowestFigureAndDerivesOneNotEveryNodeDeclares) {
  auto phases = runAuto({"azure-ndv4", "aws-p4d-efa"},
                        {candidate("test-azure", kAzure, "pair_busbw_gbs = 12.5\nallreduce_busbw_gbs = 20"),
                         candidate("test-aws", kAws, "pair_busbw_gbs = 9")});
  for (const ProbePhase& p : phases) {
    EXPECT_EQ(p.declared.pairBusbwGbs, 9);  // a pair is as fast as its slower node
    EXPECT_FALSE(p.declared.allreduceBusbwGbs);
    EXPECT_EQ(
        p.declared.source,
        "the lowest of built-in test-aws on 1 node(s), built-in test-azure on 1 node(s), picked by --profile auto");
    EXPECT_EQ(p.declared.note,
              "expect.allreduce_busbw_gbs is declared by ndv4-vmss000004 (built-in test-azure) but not by "
              "ip-172-31-20-45 (built-in test-aws): it is derived, as without a profile");
  }
  // A node that picks nothing declares nothing: no figure applies to the run.
  phases = runAuto({"azure-ndv4", "ib-ndr-8hca"}, {candidate("test-azure", kAzure, "pair_busbw_gbs = 12.5")});
  EXPECT_FALSE(phases[0].declared.pairBusbwGbs);
  EXPECT_EQ(phases[0].declared.note,
            "expect.pair_busbw_gbs is declared by ndv4-vmss000004 (built-in test-azure) but not by dgx-h100-017 "
            "(none): it is derived, as without a profile");
}

TEST(CheckProbePhase, AutoWithTheShippedBuiltinsDeclaresWhatTheNamedProfileDeclares) {
  auto phases = runAuto({"azure-ndv4"}, probes::builtinProfiles());
  Thresholds byAuto, byName;
  applyDeclared(phases[0].declared, byAuto);
  loadCheckProfile("azure-nd-a100-v4", byName);
  EXPECT_EQ(byAuto.toJson(), byName.toJson());
}

}  // namespace
}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The chain of events and the rule families added for issue 17: a cause ranks before its consequences (a
// watchdog timeout, a peer that went away), equally likely causes rank by which failed first, weak evidence
// gives low-confidence candidates, and each family is found in wordings of several NCCL/PyTorch versions.
// Every log line here is synthetic, written in the format NCCL and PyTorch print.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pf/error.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

std::vector<std::string> categories(const std::string& log) {
  std::vector<std::string> out;
  for (const auto& d : test::analyzeText(log).diagnoses) out.push_back(d.rule->category);
  return out;
}

std::string top(const std::string& log) {
  auto c = categories(log);
  return c.empty() ? "(none)" : c.front();
}

using test::topRule;

const std::string kWatchdog =
    "[rank3]:[E ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective operation timeout: "
    "WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600103 "
    "milliseconds before timing out.\n";

TEST(DoctorChain, CauseRanksBeforeTheWatchdogTimeoutItCaused) {
  // The verbs failure came first; the timeout (confidence 0.8) is its consequence and must not lead.
  const std::string log =
      "gpu7:511:530 [3] transport/net_ib.cc:1291 NCCL WARN NET/IB : Got completion from peer 10.0.0.8<4521> with "
      "error 5, opcode 0, len 0, vendor err 249 (Recv)\n" +
      kWatchdog;
  auto c = categories(log);
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c.front(), "ib-verbs");
  EXPECT_EQ(c.back(), "timeout-hang");
}

TEST(DoctorChain, ConsequenceAloneIsStillReported) {
  EXPECT_EQ(topRule(kWatchdog), "timeout-hang.watchdog-timeout");
  EXPECT_EQ(top("[E ProcessGroupNCCL.cpp:1182] NCCL error: remote process exited or there was a network error"),
            "network-interface");
}

TEST(DoctorChain, PeerGoneFollowsTheRealFailure) {
  const std::string log =
      "node2:9:40 [0] transport/shm.cc:590 NCCL WARN Cuda failure 217 'peer access is not supported between "
      "these two devices'\n"
      "node1:8:41 [1] NCCL WARN NET/Socket : peer 10.1.1.2<33212> message truncated / remote process exited or "
      "there was a network error\n";
  EXPECT_EQ(topRule(log), "shm.shm-transport-cuda-failure");
}

TEST(DoctorChain, EquallyLikelyCausesRankByWhichFailedFirst) {
  // Two unrelated 0.9 rules with one group each: the earlier line is the earlier failure.
  const std::string a = "node1:1:1 [0] NCCL WARN Bootstrap : no socket interface found\n";
  const std::string b = "node1:1:2 [0] NCCL WARN Cuda failure 'peer access is not supported between these two'\n";
  EXPECT_EQ(top(a + b), "network-interface");
  EXPECT_EQ(top(b + a), "p2p");
}

TEST(DoctorChain, BarrierWarningExplainsTheLaterTimeout) {
  const std::string log =
      "[W ProcessGroupNCCL.cpp:2291] Rank 1 using GPU 0 to perform barrier as devices used by this process are "
      "currently unknown. This can potentially cause a hang if this rank to GPU mapping is incorrect.\n" +
      kWatchdog;
  EXPECT_EQ(topRule(log), "cuda.barrier-device-unknown");
}

TEST(DoctorChain, FirstBarrierTimeoutGivesASecondCandidate) {
  const std::string log =
      "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, "
      "NumelOut=1, Timeout(ms)=600000) ran for 600511 milliseconds before timing out.\n";
  auto a = test::analyzeText(log);
  ASSERT_GE(a.diagnoses.size(), 2u);
  EXPECT_EQ(a.diagnoses[0].rule->category, "timeout-hang");
  EXPECT_EQ(a.diagnoses[1].rule->id, "cuda.first-barrier-timeout");
  EXPECT_LT(a.diagnoses[1].rule->confidence, 0.5);
}

TEST(DoctorChain, BareSystemErrorGivesLowConfidenceCandidates) {
  auto a = test::analyzeText(
      "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1191, unhandled system "
      "error, NCCL version 2.14.3\n");
  ASSERT_GE(a.diagnoses.size(), 2u);
  // In the order of the development cases that print it: shared memory 10 of 16, the interface 3.
  EXPECT_EQ(a.diagnoses[0].rule->category, "shm");
  EXPECT_EQ(a.diagnoses[1].rule->category, "network-interface");
  for (const auto& d : a.diagnoses) EXPECT_LE(d.rule->confidence, 0.35) << d.rule->id;
  EXPECT_FALSE(a.diagnoses[0].rule->commands.empty()) << "a weak diagnosis names the command that would tell";
}

TEST(DoctorChain, SpecificSystemErrorBeatsTheGenericCandidates) {
  const std::string log =
      "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
      "node3:77:90 [2] NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Ab12Cd (size 9637888)\n";
  EXPECT_EQ(top(log), "shm");
  EXPECT_EQ(categories(log).size(), 1u) << "the generic candidates are fallbacks";
}

TEST(DoctorChain, InvalidUsageWithoutReasonPointsAtDevices) {
  auto c = categories("Failed, NCCL error test.cu:212 'invalid usage'\n");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0], "cuda");
}

TEST(DoctorFamilies, VerbsFailuresInAnyWording) {
  EXPECT_EQ(topRule("n1:5:6 [0] misc/ibvwrap.cc:212 NCCL WARN Call to ibv_query_port failed with error "
                    "Input/output error\n"),
            "ib-verbs.verbs-call-failed");
  EXPECT_EQ(topRule("n1:5:6 [0] NCCL WARN NET/IB : ibv_query_gid failed in port 1 gid index 7\n"),
            "ib-verbs.verbs-call-failed");
  // The libibverbs probe on a machine without IB is not a failure.
  EXPECT_EQ(top("n1:5:5 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"), "(none)");
}

TEST(DoctorFamilies, ModifierRepeatedInsideAList) {
  EXPECT_EQ(top("export NCCL_IB_HCA=^mlx5_2,^mlx5_3\n"), "ib-verbs");
  EXPECT_EQ(top("NCCL_SOCKET_IFNAME=^docker0,^lo torchrun train.py\n"), "network-interface");
  EXPECT_EQ(top("export NCCL_IB_HCA=^mlx5_2,mlx5_3\n"), "(none)");
}

TEST(DoctorFamilies, SymbolsAndLibrariesOfAnotherVersion) {
  EXPECT_EQ(top("ImportError: libtorch_cuda.so: undefined symbol: ncclCommWindowRegister\n"), "version-mismatch");
  EXPECT_EQ(top("n1:1:1 [0] enqueue.cc:90 NCCL WARN Cuda failure 'named symbol not found'\n"), "version-mismatch");
  EXPECT_EQ(topRule("n1:1:1 [0] NCCL INFO NET/Plugin: dlerror=/usr/lib/libfabric.so.1: version `FABRIC_1.8' not "
                    "found (required by /opt/aws-ofi-nccl/lib/libnccl-net.so)\n"),
            "efa-libfabric.net-plugin-load-failed");
  EXPECT_EQ(topRule("n1:1:1 [0] NCCL WARN Error: network AWS Libfabric not found.\n"),
            "efa-libfabric.net-name-not-found");
  EXPECT_EQ(topRule("n1:1:1 [0] register_mr_buffers:601 NCCL WARN NET/OFI Unable to register memory (type = 2) "
                    "for device 3. RC: -22, Error: Invalid argument\n"),
            "version-mismatch.ofi-register-einval");
}

TEST(DoctorFamilies, CudaFailuresByMeaning) {
  EXPECT_EQ(topRule("n1:1:1 [0] init.cc:1712 NCCL WARN Cuda failure 'system not yet initialized'\n"),
            "cuda.fabric-manager-not-running");
  EXPECT_EQ(top("RuntimeError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!\n"), "cuda");
  EXPECT_EQ(top("RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at c10/cuda/CUDAGuard\n"),
            "cuda");
  auto c = categories("ncclCommInitRank failed: unhandled cuda error\n");
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c[0], "version-mismatch");
  EXPECT_EQ(c[1], "cuda");
}

TEST(DoctorFamilies, LauncherAndRendezvousMessages) {
  EXPECT_EQ(top("ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable "
                "MASTER_ADDR expected, but not set\n"),
            "rendezvous");
  EXPECT_EQ(top("RuntimeError: [enforce fail at gloo/transport/tcp/device.cc:84] ifa != nullptr. Unable to find "
                "address for: ^eth\n"),
            "network-interface");
  EXPECT_EQ(top("Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/4\n"), "rendezvous");
}

TEST(DoctorFamilies, ProgramBugsThatEndInATimeout) {
  const std::string fr =
      "error msg: Culprit rank 5; Error type: COLLECTIVE_TYPE_MISMATCH, Expected collective type: 'all_reduce' "
      "does not match found collective type: 'all_gather'\n";
  EXPECT_EQ(topRule(fr + kWatchdog), "timeout-hang.collective-desync");
}

TEST(DoctorFamilies, NcclTestsProcessesThatNeverFormedOneWorld) {
  const std::string header =
      "# nThread 1 nGpus 4 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1\n"
      "#\n# Using devices\n";
  const std::string devs =
      "#  Rank  0 Group  0 Pid   4100 on     nodeA device  0 [0x0f] NVIDIA A100-SXM4-80GB\n"
      "#  Rank  1 Group  0 Pid   4100 on     nodeA device  1 [0x34] NVIDIA A100-SXM4-80GB\n";
  EXPECT_EQ(topRule(header + devs + header + devs), "rendezvous.nccl-tests-separate-worlds");
  EXPECT_EQ(topRule(header + devs), "p2p.single-node-stall") << "one header: the old stall signal is unchanged";
}

TEST(DoctorFamilies, CrashesAndKills) {
  EXPECT_EQ(top("[n1:04211] *** Process received signal ***\n[n1:04211] Signal: Segmentation fault (11)\n"), "other");
  EXPECT_EQ(top("torch.distributed.elastic.multiprocessing.api:[ERROR] failed (exitcode: -9) local_rank: 2\n"
                "Signal 9 (SIGKILL) received by PID 5512\n"),
            "resource-limits");
}

TEST(DoctorCatalog, ConsequenceMustBeABoolean) {
  const std::string rule = R"({"category": "shm", "rules": [{"id": "shm.c", "title": "t", "explanation": "e",
      "fix": "f", "confidence": 0.5, "match": [["a long literal"]], "consequence": )";
  EXPECT_TRUE(parseRulesFile("shm.json", rule + "true}]}").at(0).consequence);
  EXPECT_THROW(parseRulesFile("shm.json", rule + "\"yes\"}]}"), UsageError);
}

}  // namespace
}  // namespace pf::doctor

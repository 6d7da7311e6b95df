// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL's IB completion errors, status by status and in each release's wording, and the IB transport's warnings since
// NCCL 2.29 moved it to src/transport/net_ib/ (whose p2p.cc is not the P2P transport).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

using test::rankedRuleIds;
using test::topRule;

// One completion error with status `status` (named `name` by libibverbs), as each NCCL release prints it.
std::vector<std::string> completionLines(int status, const std::string& name) {
  const std::string n = std::to_string(status);
  return {
      // NCCL 2.18 and before.
      "n3:2817:2930 [3] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion with error " + n +
          ", opcode 0, len 0, vendor err 129\n",
      // NCCL 2.19.
      "n3:2817:2930 [3] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.1.0.14<41822> with "
      "error " +
          n + ", opcode 0, len 0, vendor err 129 (Recv)\n",
      // NCCL 2.20 to 2.28.
      "n3:2817:2930 [3] transport/net_ib.cc:1444 NCCL WARN NET/IB: Got completion from peer 10.1.0.14<41822> with "
      "status=" +
          n + " opcode=0 len=0 vendor err 129 (Recv) hca mlx5_3\n",
      // NCCL 2.29 and later.
      "n3:2817:2930 [3] transport/net_ib/p2p.cc:688 NCCL WARN NET/IB: Got completion from peer 10.1.0.14<41822> with "
      "status=" +
          name + "(" + n + ") opcode=IBV_WC_RDMA_WRITE(1) vendor_err=129  hca mlx5_3\n",
  };
}

TEST(DoctorIbCompletion, EachStatusNamesItsOwnCauseInEveryReleasesWording) {
  const struct {
    int status;
    const char* name;
    const char* rule;
  } cases[] = {
      {4, "IBV_WC_LOC_PROT_ERR", "ib-verbs.completion-error-4-protection"},
      {10, "IBV_WC_REM_ACCESS_ERR", "ib-verbs.completion-error-10-remote-access"},
      {13, "IBV_WC_RNR_RETRY_EXC_ERR", "ib-verbs.completion-error-13-receiver-not-ready"},
      {5, "IBV_WC_WR_FLUSH_ERR", "ib-verbs.completion-error-5-flushed"},
      {12, "IBV_WC_RETRY_EXC_ERR", "ib-verbs.completion-error-12-"},  // -retry, or -ib-link on an IB port
  };
  for (const auto& c : cases) {
    for (const auto& line : completionLines(c.status, c.name))
      EXPECT_EQ(topRule(line).rfind(c.rule, 0), 0u) << line << topRule(line);
  }
  // Status 1 (a local length error) has no rule of its own: the generic completion error answers, not 12's or 13's.
  for (const auto& line : completionLines(1, "IBV_WC_LOC_LEN_ERR")) {
    const auto top = topRule(line);
    EXPECT_TRUE(top == "ib-verbs.verbs-retry-or-cqe" || top == "ib-verbs.completion-error-other") << line << top;
  }
  // Other programs print libibverbs' own words for the status (ibv_wc_status_str).
  EXPECT_EQ(topRule("[1714.2] ucp_worker.c:1543 UCX ERROR  Work Request Flushed Error on mlx5_0:1/IB\n"),
            "ib-verbs.completion-error-5-flushed");
  EXPECT_EQ(topRule("[1714.2] UCX ERROR send completion with error: RNR retry counter exceeded\n"),
            "ib-verbs.completion-error-13-receiver-not-ready");
}

TEST(DoctorIbCompletion, NcclsOwnHintsUnderStatusFourDoNotMakeItATimeout) {
  // NCCL 2.30.7 prints hints after a completion error; its switch has no break, so status 4 also prints the flush
  // and the NCCL_IB_TIMEOUT hints. Only the WARN's status decides.
  const std::string log =
      completionLines(4, "IBV_WC_LOC_PROT_ERR")[3] +
      "n3:2817:2930 [3] NCCL INFO HINT: In many cases this error occurs when ACS is enabled which would break GPU "
      "Direct RDMA protocol.\n"
      "n3:2817:2930 [3] NCCL INFO HINT: In many cases this error occurs when NIC on the same instance cannot talk to "
      "each other.\n"
      "n3:2817:2930 [3] NCCL INFO HINT: In many cases this error occurs when the NCCL_IB_TIMEOUT is set too short.\n";
  const auto ids = rankedRuleIds(log);
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.front(), "ib-verbs.completion-error-4-protection");
  for (const auto& id : ids) EXPECT_NE(id, "ib-verbs.completion-error-12-retry");
}

TEST(DoctorIbCompletion, AFlushAfterARetryTimeoutIsItsConsequence) {
  // The retry timeout put the queue pair in the error state; the requests still queued on it were flushed.
  // Both lines are also "a completion error" to the generic rule, which is folded into them: two causes, not three.
  const std::string log = completionLines(5, "IBV_WC_WR_FLUSH_ERR")[1] + completionLines(12, "")[1];
  const auto ids = rankedRuleIds(log);
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[0], "ib-verbs.completion-error-12-retry");
  EXPECT_EQ(ids[1], "ib-verbs.completion-error-5-flushed");
}

TEST(DoctorIbCompletion, ARecoveredErrorOfNcclsPortFailoverIsNotAFailure) {
  // With NCCL_IB_RESILIENCY_PORT_FAILOVER=1, NCCL 2.29.7 and later log the completion error at INFO and carry on.
  EXPECT_EQ(topRule("n3:2817:2930 [3] NCCL INFO NET/IB: ncclIbResiliencyHandleCompletionError: Got completion with "
                    "error (devIndex=1, wc->status=(IBV_WC_RETRY_EXC_ERR)12, wc->opcode=(IBV_WC_RDMA_WRITE)1, "
                    "wc->wr_id=7, wc->qp_num=4711, wc->byte_len=0)\n"
                    "n3:2817:2930 [3] NCCL INFO NET/IB: ncclIbResiliencyCheckErrorNotFatal: The error is not fatal. "
                    "Trying to continue...\n"),
            "(none)");
}

TEST(DoctorIbCompletion, TheIbTransportsP2pFileIsNotTheP2pTransport) {
  // NCCL 2.29 moved the IB transport to src/transport/net_ib/; a warning from its p2p.cc is about RDMA, not CUDA IPC.
  const std::string warn =
      "n3:2817:2930 [3] transport/net_ib/p2p.cc:412 NCCL WARN NET/IB: Invalid wr_id (7). Unable to retrieve a "
      "request on the receiver side (comm=0x7f00dead0000)\n";
  EXPECT_EQ(topRule(warn).rfind("ib-verbs.", 0), 0u) << topRule(warn);
  for (const auto& id : rankedRuleIds(warn)) EXPECT_NE(id, "p2p.ipc-handle");
  EXPECT_EQ(topRule("n3:2817:2930 [3] transport/net_ib/connect.cc:733 NCCL WARN Listencomm in unknown state 3\n"),
            "ib-verbs.ib-transport-warning");
  // The P2P transport's own file still reads as P2P.
  EXPECT_EQ(topRule("n3:2817:2930 [3] transport/p2p.cc:307 NCCL WARN Cuda failure 'invalid resource handle'\n"),
            "p2p.ipc-handle");
  // A specific cause ranks above a warning matched only by its file name.
  EXPECT_EQ(topRule("n3:2817:2930 [3] transport/net_ib/gin.cc:201 NCCL WARN Unable to use GIN: Peermem is not "
                    "supported, and device 0 does not support DMA-BUF.\n"),
            "ib-verbs.gdr-disabled");
}

TEST(DoctorIbCompletion, NcclsPortFailoverSaysWhetherTheJobCarriedOn) {
  // NCCL 2.29.7+ with NCCL_IB_RESILIENCY_PORT_FAILOVER=1: a port of a two-port connection times out and is retired.
  const std::string retired =
      completionLines(12, "IBV_WC_RETRY_EXC_ERR")[3] +
      "n3:2817:2930 [3] transport/net_ib/p2p_resiliency.cc:325 NCCL WARN NET/IB: ncclIbResiliencyHandleDeviceFailure: "
      "Device 1 marked as failed. Initiating recovery? No (send comm=0x7f00dead0000, outstandingRecovery=0)\n"
      "n3:2817:2930 [3] NCCL INFO NET/IB: ncclIbResiliencyHandleDeviceFailure: Device 1 was already marked as "
      "failed.\n";
  EXPECT_TRUE(test::diagnoses(retired, "ib-verbs.port-failover-survived"));
  EXPECT_FALSE(test::diagnoses(retired, "ib-verbs.port-failover-exhausted"));
  // The second port fails too: nothing is left to carry the traffic.
  const std::string exhausted =
      retired +
      "n3:2817:2930 [3] transport/net_ib/p2p_resiliency.cc:61 NCCL WARN NET/IB: ncclIbResiliencyCheckErrorNotFatal: "
      "The error is fatal (No functional devices left). Cannot continue.\n";
  EXPECT_TRUE(test::diagnoses(exhausted, "ib-verbs.port-failover-exhausted"));
  EXPECT_FALSE(test::diagnoses(exhausted, "ib-verbs.port-failover-survived"));
  // A status failover does not handle is fatal at once, and its own rule still names the cause.
  const std::string unsupported =
      completionLines(4, "IBV_WC_LOC_PROT_ERR")[3] +
      "n3:2817:2930 [3] transport/net_ib/p2p_resiliency.cc:42 NCCL WARN NET/IB: Unsupported completion status "
      "IBV_WC_LOC_PROT_ERR (4)\n";
  EXPECT_TRUE(test::diagnoses(unsupported, "ib-verbs.port-failover-exhausted"));
  EXPECT_TRUE(test::diagnoses(unsupported, "ib-verbs.completion-error-4-protection"));
}

}  // namespace
}  // namespace pf::doctor

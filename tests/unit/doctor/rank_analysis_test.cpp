// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

TEST(DoctorRanks, WatchdogShowsWhoWasBehindAndWhoNeverReported) {
  std::string log;
  // A 4-rank job: ranks 0 and 1 time out at SeqNum 12, rank 2 at 11; rank 3 never reports.
  for (int r : {0, 1})
    log += "[rank" + std::to_string(r) + "]:[E ProcessGroupNCCL.cpp:616] [Rank " + std::to_string(r) +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, "
           "NumelOut=1, Timeout(ms)=600000) ran for 600123 milliseconds before timing out.\n";
  log +=
      "[rank2]:[E ProcessGroupNCCL.cpp:616] [Rank 2] Watchdog caught collective operation timeout: "
      "WorkNCCL(SeqNum=11, OpType=BROADCAST, Timeout(ms)=600000) ran for 600001 milliseconds before timing out.\n";
  log += "[rank3]: iteration 10 loss 1.0\n";
  for (int r = 0; r < 4; ++r)
    log += "n" + std::to_string(r) + ":1:1 [0] NCCL INFO comm 0x1 rank " + std::to_string(r) +
           " nranks 4 cudaDev 0 busId 1000 commId 0xabc - Init COMPLETE\n";
  Analysis a = test::analyzeText(log);
  ASSERT_FALSE(a.diagnoses.empty());
  EXPECT_EQ(a.diagnoses[0].rule->category, "timeout-hang");
  const auto& r = a.ranks;
  EXPECT_EQ(r.worldSize, 4);
  ASSERT_EQ(r.watchdog.size(), 3u);
  EXPECT_EQ(r.watchdog[0].seq, 12);
  EXPECT_EQ(r.watchdog[0].op, "ALLREDUCE");
  EXPECT_EQ(r.watchdog[0].timeoutMs, 600000);
  EXPECT_EQ(r.watchdog[2].ranForMs, 600001);
  EXPECT_EQ(r.waitedOn, (std::vector<int>{2, 3}));
  EXPECT_TRUE(r.neverInitialised.empty());
  ASSERT_TRUE(r.haveFirst);
  EXPECT_EQ(r.firstFailure.rank, 0);
}

TEST(DoctorRanks, ASilentRankWithAnErrorOfItsOwnFailedFirstRatherThanStuck) {
  // Ranks 0 and 1 time out; rank 2 hit a CUDA error ten minutes before; rank 3 left nothing but its Init line.
  std::string log;
  for (int r = 0; r < 4; ++r)
    log += std::to_string(r) + ": n" + std::to_string(r / 2) + ":" + std::to_string(r + 1) + ":1 [" +
           std::to_string(r % 2) + "] NCCL INFO comm 0x1 rank " + std::to_string(r) +
           " nranks 4 cudaDev 0 busId 1000 commId 0xabc - Init COMPLETE\n";
  log +=
      "2: [rank2]:[E422 10:42:31.774530 3 ProcessGroupNCCL.cpp:1834] [PG ID 0 PG GUID 0(default_pg) Rank 2] Process "
      "group watchdog thread terminated with exception: CUDA error: unspecified launch failure\n";
  for (int r : {0, 1})
    log += std::to_string(r) + ": [rank" + std::to_string(r) + "]:[E422 10:52:38.90123" + std::to_string(r) +
           " 1 ProcessGroupNCCL.cpp:632] [Rank " + std::to_string(r) +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, "
           "NumelOut=1, Timeout(ms)=600000) ran for 600123 milliseconds before timing out.\n";
  const auto& notes = test::analyzeText(log).ranks.notes;
  ASSERT_FALSE(notes.empty());
  EXPECT_EQ(notes[0],
            "2 of the 4 ranks whose logs are given hit the watchdog; the others (2, 3) never reported a timeout: rank "
            "2 failed first (log:5); rank 3 was probably stuck before the collective");
}

TEST(DoctorRanks, NcclsOwnFailingLineTakesItsRankFromItsProcesssInitLine) {
  // Rank 3's own NCCL_DEBUG_FILE log: no launcher prefix, and NCCL's "[1]" is a CUDA device, not a rank.
  const std::string rank3 =
      "node3:2817:2817 [1] NCCL INFO comm 0x5611a0d0 rank 3 nranks 4 cudaDev 1 busId 2b000 commId 0xabc - Init "
      "COMPLETE\n"
      "node3:2817:2901 [1] transport/net_ib.cc:2358 NCCL WARN NET/IB: Got completion from peer 10.0.0.2<47372> with "
      "status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.3 remoteGids::ffff:10.0.0.2 hca mlx5_3\n";
  std::string others;
  for (int r = 0; r < 3; ++r)
    others += "node" + std::to_string(r) + ":10:10 [0] NCCL INFO comm 0x1 rank " + std::to_string(r) +
              " nranks 4 cudaDev 0 busId 1000 commId 0xabc - Init COMPLETE\n[rank" + std::to_string(r) +
              "]:[E422 10:52:38.901234 10 ProcessGroupNCCL.cpp:632] [Rank " + std::to_string(r) +
              "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, "
              "NumelOut=1, Timeout(ms)=600000) ran for 600123 milliseconds before timing out.\n";
  Analysis a = analyze(test::catalog(), {Source{"rank3.log", rank3}, Source{"others.log", others}});
  bool ibWithRank = false;
  for (const auto& fl : a.failingLines) ibWithRank |= fl.evidence.file == "rank3.log" && fl.evidence.rank == 3;
  EXPECT_TRUE(ibWithRank);
  ASSERT_FALSE(a.ranks.notes.empty());
  EXPECT_NE(a.ranks.notes[0].find("the others (3) never reported a timeout: rank 3 failed first (rank3.log:2)"),
            std::string::npos)
      << a.ranks.notes[0];
  // Its rank in a smaller group (a tensor-parallel pair) is not the job's: no rank is given.
  std::string sub = rank3;
  sub.replace(sub.find("rank 3 nranks 4"), 15, "rank 1 nranks 2");
  a = analyze(test::catalog(), {Source{"rank3.log", sub}, Source{"others.log", others}});
  int fromRank3 = 0;
  for (const auto& fl : a.failingLines)
    if (fl.evidence.file == "rank3.log") {
      ++fromRank3;
      EXPECT_EQ(fl.evidence.rank, -1);
    }
  EXPECT_GT(fromRank3, 0);
}

TEST(DoctorRanks, FirstFailureByTimestampAndNeverInitialisedRanks) {
  std::string log =
      "[2026-01-01 10:00:05] b:2:2 [0] include/shm.h:28 NCCL WARN Call to posix_fallocate failed: No space left\n"
      "[2026-01-01 10:00:01] a:1:1 [0] include/shm.h:28 NCCL WARN Call to posix_fallocate failed: No space left\n";
  for (int r : {0, 1, 2, 4, 5})
    log += "h:1:1 [0] NCCL INFO comm 0x1 rank " + std::to_string(r) + " nranks 6 cudaDev 0 commId 0x9 - Init START\n";
  Analysis a = test::analyzeText(log, "job.log");
  ASSERT_TRUE(a.ranks.haveFirst);
  EXPECT_EQ(a.ranks.firstFailure.host, "a");
  EXPECT_EQ(a.ranks.firstFailure.where(), "job.log:2");
  EXPECT_EQ(a.ranks.neverInitialised, std::vector<int>{3});
}

TEST(DoctorRanks, PartialLogsDoNotAccuseTheOtherRanks) {
  // One node's log of a 64-rank job: the other 56 ranks are absent, not uninitialised.
  std::string log;
  for (int r = 0; r < 8; ++r)
    log += "h:1:1 [0] NCCL INFO comm 0x1 rank " + std::to_string(r) + " nranks 64 cudaDev 0 commId 0x9 - Init START\n";
  EXPECT_TRUE(test::analyzeText(log).ranks.neverInitialised.empty());
}

}  // namespace
}  // namespace pf::doctor

namespace pf::doctor {
namespace {

TEST(DoctorRanks, FlightRecorderStyleTimeoutLines) {
  std::string log;
  for (int r : {0, 1, 3})
    log += "[rank" + std::to_string(r) + "]:[E ProcessGroupNCCL.cpp:1595] [PG 0 (default_pg) Rank " +
           std::to_string(r) +
           "] Timeout at NCCL work: 57, last enqueued NCCL work: 57, last completed NCCL work: 56.\n";
  log +=
      "[rank2]:[E ProcessGroupNCCL.cpp:1595] [PG 0 (default_pg) Rank 2] Timeout at NCCL work: 55, last enqueued NCCL "
      "work: 55, last completed NCCL work: 54.\n";
  Analysis a = test::analyzeText(log);
  ASSERT_FALSE(a.diagnoses.empty());
  EXPECT_EQ(a.diagnoses[0].rule->category, "timeout-hang");
  ASSERT_EQ(a.ranks.watchdog.size(), 4u);
  EXPECT_EQ(a.ranks.waitedOn, std::vector<int>{2});  // rank 2 is two collectives behind
}

}  // namespace
}  // namespace pf::doctor

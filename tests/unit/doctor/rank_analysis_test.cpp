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

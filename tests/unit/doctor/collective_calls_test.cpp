// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL's per-call INFO lines (NCCL_DEBUG_SUBSYS=COLL): ranks that log one collective with different arguments
// are out of step. Lines laid out as NCCL 2.x prints them ("%s: opCount %lx sendbuff %p recvbuff %p count %zu
// datatype %d op %d root %d comm %p [nranks=%d] stream %p"); the values are made up.
#include <gtest/gtest.h>

#include <string>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

std::string call(int rank, const std::string& coll, const std::string& opCount, const std::string& count, int datatype,
                 const std::string& comm = "") {
  return "node7:" + std::to_string(3200 + rank) + ":" + std::to_string(3200 + rank) + " [" + std::to_string(rank) +
         "] NCCL INFO " + coll + ": opCount " + opCount + " sendbuff 0x7f88e4000000 recvbuff 0x7f88e4000000 count " +
         count + " datatype " + std::to_string(datatype) + " op 0 root 0 comm " +
         (comm.empty() ? "0x7f88e005a26" + std::to_string(rank) : comm) + " [nranks=4] stream 0x55f20d2f5db0\n";
}

TEST(DoctorCollectiveCalls, RanksWithDifferentArgumentsAtOneCallAreOutOfStep) {
  std::string same, differ;
  for (int r = 0; r < 4; ++r) same += call(r, "Broadcast", "0", "53", 4);
  for (int r = 0; r < 4; ++r) differ += call(r, "Broadcast", "0", r == 0 ? "25503912" : "53", r == 0 ? 6 : 4);
  EXPECT_EQ(test::topRule(same), "(none)");
  const Analysis a = test::analyzeText(differ);
  ASSERT_FALSE(a.diagnoses.empty());
  EXPECT_EQ(a.diagnoses[0].rule->id, "timeout-hang.collective-args-differ");
  EXPECT_EQ(a.info.facts().at("collective_args_differ").size(), 2u);
  // The same call in a grep -r paste ("LOG1.0.txt:" before the host) reads the same.
  std::string grepped;
  for (int r = 0; r < 4; ++r)
    grepped += "LOG1." + std::to_string(r) + ".txt:" + call(r, "Broadcast", "0", r == 0 ? "25503912" : "53", 4);
  EXPECT_EQ(test::topRule(grepped), "timeout-hang.collective-args-differ");
}

// Send and Recv carry per-peer counts; and a process with two communicators of one size makes the calls of the
// two indistinguishable here, so no conclusion is drawn.
TEST(DoctorCollectiveCalls, PointToPointAndAmbiguousCommunicatorsAreNotCompared) {
  std::string p2p;
  for (int r = 0; r < 4; ++r) p2p += call(r, "Send", "2", std::to_string(100 * (r + 1)), 7);
  EXPECT_EQ(test::topRule(p2p), "(none)");
  std::string twoComms = call(0, "AllReduce", "5", "1024", 7, "0xaaa0") + call(0, "AllReduce", "6", "8", 7, "0xbbb0") +
                         call(1, "AllReduce", "5", "8", 7, "0xccc0");
  EXPECT_FALSE(test::analyzeText(twoComms).info.facts().count("collective_args_differ"));
}

// A line with more words than the reader keeps, "opCount" among the last it keeps: read safely, nothing derived.
TEST(DoctorCollectiveCalls, LongLinesAreReadWithinTheirWords) {
  std::string line = "n1:1:1 [0] NCCL INFO";
  for (int i = 0; i < 34; ++i) line += " w" + std::to_string(i);
  EXPECT_EQ(test::topRule(line + " AllReduce: opCount 0 count 8 datatype 7 op 0 root 0 [nranks=2]\n" + line +
                          " AllReduce: opCount 0 count 9 datatype 7 op 0 root 0 [nranks=2]\n"),
            "(none)");
}

}  // namespace
}  // namespace pf::doctor

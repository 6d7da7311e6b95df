// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The weak-evidence tier: one fallback rule per category (`<category>.weak-evidence`, doctor/rules/) that
// answers, at low confidence, when no signature matched but the log shows a failure and lines outside NCCL's
// INFO output carry the category's words. It must never outrank a specific rule, never fire on a log that shows
// no failure, and never read NCCL INFO lines as evidence. Every log line here is synthetic.
#include <gtest/gtest.h>

#include <string>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

struct Top {
  std::string id;
  double confidence = 0;
};

Top topDiagnosis(const std::string& log) {
  auto a = test::analyzeText(log);
  if (a.diagnoses.empty()) return {"(none)", 0};
  return {a.diagnoses.front().rule->id, a.diagnoses.front().rule->confidence};
}

TEST(DoctorWeakEvidence, AFailureWithOnlyACategorysWordsGetsThatCategoryAtLowConfidence) {
  const Top t = topDiagnosis(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 12, in <module>\n"
      "RuntimeError: could not reach the TCPStore on node7 after 3 attempts\n");
  EXPECT_EQ(t.id, "rendezvous.weak-evidence");
  EXPECT_LT(t.confidence, 0.3);
  EXPECT_EQ(topDiagnosis("kernel: mlx5_core 0000:3b:00.0: mlx5_cmd_out_err: failed to create mkey\n").id,
            "ib-verbs.weak-evidence");
}

// A stack taken from a running process (gdb, py-spy) is how people report a hang: it counts as a failure sign.
TEST(DoctorWeakEvidence, ADebuggerStackOfAStuckProcessIsAFailureSign) {
  const std::string words = "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]\nDevice=0 CAN Access Peer Device=1\n";
  EXPECT_EQ(topDiagnosis(words).id, "(none)");
  EXPECT_EQ(topDiagnosis(
                "(gdb) bt\n#0  0x00007f2e766c9827 in sched_yield () at ../sysdeps/unix/syscall-template.S:84\n" + words)
                .id,
            "p2p.weak-evidence");
}

TEST(DoctorWeakEvidence, NoFailureInTheLogMeansNoAnswer) {
  // The category's words alone, on configuration or progress lines, are not evidence of anything.
  EXPECT_EQ(topDiagnosis("export MASTER_ADDR=node7 MASTER_PORT=29500\nworld_size=16\n").id, "(none)");
  EXPECT_EQ(topDiagnosis("mounting /dev/shm with 8g\nstep 100 loss 2.1\n").id, "(none)");
}

TEST(DoctorWeakEvidence, NcclInfoLinesAreNotEvidence) {
  // Every IB job prints "NET/IB : Using" at INFO level; a failure elsewhere must not turn that into a guess: no
  // rule answers, and the memory of reported failures (which reads no INFO line) does not say ib-verbs.
  auto a = test::analyzeText(
      "n1:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>\n"
      "RuntimeError: the optimizer state has the wrong shape\n");
  for (const auto& d : a.diagnoses) {
    EXPECT_NE(d.rule->id.find(".similar-reports"), std::string::npos) << d.rule->id;
    EXPECT_NE(d.rule->category, "ib-verbs");
  }
}

TEST(DoctorWeakEvidence, ASpecificRuleAlwaysRanksFirst) {
  // /dev/shm words and a known shm signature: the signature is the answer, the weak tier stays silent.
  auto a = test::analyzeText(
      "n1:1:1 [0] NCCL WARN Error while creating shared memory segment /dev/shm/nccl-abc (size 9637888)\n"
      "RuntimeError: NCCL error: unhandled system error; shared memory too small\n");
  ASSERT_FALSE(a.diagnoses.empty());
  EXPECT_EQ(a.diagnoses.front().rule->category, "shm");
  for (const auto& d : a.diagnoses) EXPECT_EQ(d.rule->id.find(".weak-evidence"), std::string::npos) << d.rule->id;
}

}  // namespace
}  // namespace pf::doctor

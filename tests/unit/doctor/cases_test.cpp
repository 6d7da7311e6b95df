// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Every case of error_cases_dev.jsonl (real logs from public threads, with the diagnosed root cause) must get
// its category as the top diagnosis. The cases are a development set: the rules are written from the root
// causes, and the same test over unseen cases is how they are judged.
#include <gtest/gtest.h>

#include <sstream>

#include "pf/result.hpp"
#include "report.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

struct Case {
  std::string id, category, log;
};

std::vector<Case> loadCases() {
  std::vector<Case> out;
  std::istringstream in(test::readData("error_cases_dev.jsonl"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    Json j = Json::parse(line);
    out.push_back({j["id"], j["category"], j["log_excerpt"]});
  }
  return out;
}

TEST(DoctorCases, FileHasTheThirtyDevelopmentCases) { EXPECT_EQ(loadCases().size(), 30u); }

TEST(DoctorCases, EveryCaseGetsItsCategoryFirst) {
  int right = 0;
  const auto cases = loadCases();
  for (const auto& c : cases) {
    Analysis a = test::analyzeText(c.log, c.id + ".log");
    ASSERT_FALSE(a.diagnoses.empty()) << c.id << ": no diagnosis";
    const auto& top = a.diagnoses.front();
    EXPECT_EQ(top.rule->category, c.category)
        << c.id << ": top rule " << top.rule->id << " (" << top.rule->confidence << ")";
    EXPECT_FALSE(top.evidence.empty()) << c.id;
    EXPECT_FALSE(top.fixText().empty()) << c.id;
    right += top.rule->category == c.category;
  }
  EXPECT_EQ(right, static_cast<int>(cases.size()));
}

TEST(DoctorCases, EvidencePointsAtTheMatchingLine) {
  const std::string log =
      "hello\nworld\nnode1:1:2 [0] include/shm.h:28 NCCL WARN Call to posix_fallocate failed: "
      "No space left on device\nbye\n";
  Analysis a = test::analyzeText(log, "job.out");
  ASSERT_FALSE(a.diagnoses.empty());
  EXPECT_EQ(a.diagnoses[0].rule->id, "shm.dev-shm-full");
  EXPECT_EQ(a.diagnoses[0].evidence[0].where(), "job.out:3");
  EXPECT_EQ(a.diagnoses[0].evidence[0].host, "node1");
}

TEST(DoctorCases, CleanTrainingLogGivesNoDiagnosis) {
  std::string log;
  for (int i = 0; i < 200; ++i)
    log += "[rank" + std::to_string(i % 8) + "]: iteration " + std::to_string(i) + " | lm loss: 2.1 | tokens/s 1234\n";
  log +=
      "node1:1:1 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation\n"
      "node1:1:1 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
      "node1:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 1 cudaDev 0 busId 1000 - Init COMPLETE\n"
      "Training completed. Saving checkpoint.\n";
  EXPECT_TRUE(test::analyzeText(log).diagnoses.empty());
}

TEST(DoctorCases, SameCauseInOtherWordsIsFound) {
  // Newer/older phrasings of causes in the development set, not copied from it.
  EXPECT_EQ(test::analyzeText("[rank3]: RuntimeError: CUDA error: out of memory").diagnoses.at(0).rule->category,
            "cuda");
  EXPECT_EQ(test::analyzeText("Bootstrap : no socket interface found").diagnoses.at(0).rule->category,
            "network-interface");
  EXPECT_EQ(test::analyzeText("RuntimeError: Address already in use (EADDRINUSE) on port 29500")
                .diagnoses.at(0)
                .rule->category,
            "rendezvous");
  EXPECT_EQ(test::analyzeText("x:1:2 [0] NCCL WARN NET/IB : Got completion from peer 1.2.3.4<5> with status=12 "
                              "opcode=0 len=0 vendor err 129 (transport retry counter exceeded)")
                .diagnoses.at(0)
                .rule->category,
            "ib-verbs");
}

}  // namespace
}  // namespace pf::doctor

namespace pf::doctor {
namespace {

TEST(DoctorCases, BinaryGarbageStillGivesAValidDocument) {
  // Found by fuzz_analyze: a log with invalid UTF-8 in a matching line made the JSON serialiser throw.
  std::string log = "x:1:1 [0] NCCL WARN Call to posix_fallocate failed \xFF\xFE\n";
  // The length from the array itself: the literal has a NUL inside (a hand count of 30 read one byte past it,
  // found by the AddressSanitizer build, ci/sanitize.sh).
  static const char kBinary[] = "\0\x01\x80 Duplicate GPU detected \xC3";
  log += std::string(kBinary, sizeof kBinary - 1) + "\n";
  Analysis a = test::analyzeText(log, "bad\xFFname.log");
  ASSERT_FALSE(a.diagnoses.empty());
  for (const auto& r : toResults(a)) EXPECT_NO_THROW((void)toJson(r).dump());
}

}  // namespace
}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Rules that hold for some NCCL releases only ({"fact": "nccl_in FROM BELOW"}, nccl_versions.hpp): the version
// strings as NCCL and PyTorch print them, the range's bounds, a malformed range named at load time, and a rule
// that fires only when the log's NCCL is inside its range.
#include "nccl_versions.hpp"

#include <gtest/gtest.h>

#include <string>

#include "analysis.hpp"
#include "pf/error.hpp"
#include "rule_catalog.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

TEST(DoctorNcclVersions, ReadsTheVersionsAsPrinted) {
  EXPECT_EQ(parseNcclVersion("2.8.3"), (NcclVersion{2, 8, 3}));
  EXPECT_EQ(parseNcclVersion("2.18.6+cuda12.1"), (NcclVersion{2, 18, 6}));
  EXPECT_EQ(parseNcclVersion("2.19.3-1"), (NcclVersion{2, 19, 3}));
  EXPECT_EQ(parseNcclVersion("2.14.3,"), (NcclVersion{2, 14, 3}));
  // RCCL numbers its releases after NCCL's, but NCCL's release notes do not describe its bugs.
  EXPECT_EQ(parseNcclVersion("2.18.3+hip6.0"), std::nullopt);
  for (const char* bad : {"", "2.8", "v2.8.3", "2.8.3a", "2..3", "two.8.3", "2.-8.3", "-2.8.3"})
    EXPECT_EQ(parseNcclVersion(bad), std::nullopt) << bad;
}

TEST(DoctorNcclVersions, ReadsNcclTestsVersionCodes) {
  // nccl.h's NCCL_VERSION_CODE: X*1000 + Y*100 + Z up to 2.8, X*10000 + Y*100 + Z from 2.9.
  EXPECT_EQ(ncclVersionFromCode("21805"), "2.18.5");
  EXPECT_EQ(ncclVersionFromCode("23005"), "2.30.5");
  EXPECT_EQ(ncclVersionFromCode("20906"), "2.9.6");
  EXPECT_EQ(ncclVersionFromCode("2708"), "2.7.8");
  for (const char* bad : {"", "x", "99", "1999", "100000", "-21805"})
    EXPECT_EQ(ncclVersionFromCode(bad), std::nullopt) << bad;
}

TEST(DoctorNcclVersions, ARangeHoldsFromItsFirstVersionUpToItsFix) {
  const auto r = parseNcclRangeFact("nccl_in 2.8.0 2.8.4");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->holds({2, 8, 0}));
  EXPECT_TRUE(r->holds({2, 8, 3}));
  EXPECT_FALSE(r->holds({2, 8, 4}));  // the release that fixed it
  EXPECT_FALSE(r->holds({2, 7, 8}));
  EXPECT_FALSE(r->holds({2, 18, 1}));  // compared as numbers, not as text
  EXPECT_EQ(parseNcclRangeFact("virtual_interface_selected"), std::nullopt);
  EXPECT_EQ(parseNcclRangeFact("nccl_init_stalled"), std::nullopt) << "another fact that starts with the same letters";
  for (const char* bad : {"nccl_in", "nccl_in 2.8.0", "nccl_in 2.8.4 2.8.0", "nccl_in 2.8.0 2.8.0", "nccl_in x y",
                          "nccl_in 2.-8.0 2.8.4", "nccl_in 2.8.0 2.8.4 2.9.0"})
    EXPECT_THROW(parseNcclRangeFact(bad), UsageError) << bad;
}

const char* kRules = R"({"category": "other", "rules": [
  {"id": "other.test-known-bug", "title": "t", "explanation": "e", "fix": "f", "confidence": 0.5,
   "links": ["https://docs.nvidia.com/deeplearning/nccl/release-notes/rel_2-8-4.html"],
   "match": [["Stalled ranks:"], [{"fact": "nccl_in 2.8.0 2.8.4"}]]}]})";

std::vector<std::string> diagnosed(const std::string& log) {
  Catalog c;
  c.rules = parseRulesFile("other.json", kRules);
  std::vector<std::string> ids;
  for (const auto& d : analyze(c, {Source{"log", log}}).diagnoses) ids.push_back(d.rule->id);
  return ids;
}

TEST(DoctorNcclVersions, ARuleWithARangeFiresOnlyInsideIt) {
  const std::string stall = "[2021-01-12 16:44:01.321000: W horovod/common/stall_inspector.cc:105] Stalled ranks:\n";
  const std::string info = "node1:2051:2051 [0] NCCL INFO NCCL version ";
  EXPECT_EQ(diagnosed(info + "2.8.3+cuda11.1\n" + stall), std::vector<std::string>{"other.test-known-bug"});
  EXPECT_TRUE(diagnosed(info + "2.8.4+cuda11.1\n" + stall).empty());
  EXPECT_TRUE(diagnosed(stall).empty()) << "no version in the log: the range cannot hold";
  EXPECT_TRUE(diagnosed(info + "2.8.3+cuda11.1\n").empty()) << "the version alone is no symptom";
  // PyTorch names the version in its NCCL errors; that counts too.
  EXPECT_EQ(diagnosed("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1269, unhandled system error, NCCL version "
                      "2.8.3\n" +
                      stall),
            std::vector<std::string>{"other.test-known-bug"});
  // Two versions in one log (a mixed job): the range holds when one of them is inside it.
  EXPECT_EQ(diagnosed(info + "2.10.3+cuda11.4\n" + info + "2.8.2+cuda11.1\n" + stall),
            std::vector<std::string>{"other.test-known-bug"});
}

TEST(DoctorNcclVersions, AMalformedRangeIsNamedWhenTheRulesLoad) {
  const std::string bad = R"({"category": "other", "rules": [
    {"id": "other.bad-range", "title": "t", "explanation": "e", "fix": "f", "confidence": 0.5,
     "match": [["Stalled ranks:"], [{"fact": "nccl_in 2.8.4 2.8.0"}]]}]})";
  try {
    parseRulesFile("other.json", bad);
    FAIL() << "a reversed range loaded";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("other.bad-range"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("nccl_in FROM BELOW"), std::string::npos) << e.what();
  }
}

// The catalog's own known-bug rules (doctor/rules/other.json, docs/doctor-rules.md "NCCL releases with known bugs"):
// each answers its symptom on a release before the fix, and stays silent on the release that fixed it.
TEST(DoctorNcclVersions, EachKnownBugIsNamedOnlyBeforeItsFix) {
  struct Case {
    std::string symptom;
    const char* rule;
    const char* before;
    const char* fixedIn;
  };
  const std::string segfault = "Segmentation fault (core dumped)\n";
  std::string alltoall = test::watchdogTimeoutLine(3);
  alltoall.replace(alltoall.find("OpType=ALLREDUCE"), 16, "OpType=ALLTOALL_BASE");
  const std::string wrongData = "# Out of bounds values : 24 FAILED\n";
  const Case cases[] = {
      {alltoall, "other.nccl-known-alltoall-hang", "2.14.3", "2.18.1"},
      {wrongData, "other.nccl-known-tree-ll128-corruption", "2.18.1", "2.18.3"},
      {wrongData, "other.nccl-known-ll128-unaligned-corruption", "2.10.3", "2.15.5"},
      {"node1:2051:2051 [0] NCCL INFO NCCL_MAX_P2P_NCHANNELS set by environment to 1.\n" + segfault,
       "other.nccl-known-p2p-nchannels-crash", "2.9.6", "2.9.9"},
      {"node1:2051:2051 [0] NCCL INFO NCCL_SET_THREAD_NAME set by environment to 1.\n" + segfault,
       "other.nccl-known-thread-name-crash", "2.12.10", "2.12.12"},
      {"NCCL WARN ncclCommInitRank: invalid usage\ndouble free or corruption (out)\n",
       "other.nccl-known-init-error-double-free", "2.14.3", "2.16.5"},
      {"#4 0x00007f3a1c2d5e10 in ncclCommAbort () from /usr/lib/x86_64-linux-gnu/libnccl.so.2\n" + segfault,
       "other.nccl-known-comm-abort-crash", "2.14.3", "2.16.5"},
      {"node1:2051:2051 [0] NCCL WARN Mismatched collective detected, please check your collective calls at and "
       "around rank 1\n  File \"train.py\", line 40, in step: ncclSend(buf, peer)\n",
       "other.nccl-known-sendrecv-mismatch", "2.7.6", "2.7.8"},
  };
  for (const auto& c : cases) {
    const std::string version = "node1:2051:2051 [0] NCCL INFO NCCL version ";
    EXPECT_TRUE(test::diagnoses(version + c.before + "+cuda11.8\n" + c.symptom, c.rule))
        << c.rule << " on " << c.before;
    EXPECT_FALSE(test::diagnoses(version + c.fixedIn + "+cuda11.8\n" + c.symptom, c.rule))
        << c.rule << " on " << c.fixedIn;
    EXPECT_FALSE(test::diagnoses(c.symptom, c.rule)) << c.rule << " with no version in the log";
  }
  // nccl-tests names the library it ran in its first line, which is often all a paste has of the version.
  const std::string header = "# nccl-tests version 2.13.6 nccl-headers=21801 nccl-library=";
  EXPECT_TRUE(test::diagnoses(header + "21801\n" + wrongData, "other.nccl-known-tree-ll128-corruption"));
  EXPECT_FALSE(test::diagnoses(header + "21803\n" + wrongData, "other.nccl-known-tree-ll128-corruption"));
  // Ranked by what the release notes make of the evidence: the mismatch error on 2.7.3-2.7.7 is NCCL's own bug,
  // first; wrong data on a release before 2.15.5 is a weak candidate, after the P2P path.
  EXPECT_EQ(test::topRule("node1:1:1 [0] NCCL INFO NCCL version 2.7.6+cuda11.0\n" + cases[7].symptom),
            "other.nccl-known-sendrecv-mismatch");
  EXPECT_EQ(test::topRule("node1:1:1 [0] NCCL INFO NCCL version 2.10.3+cuda11.4\n" + wrongData),
            "p2p.nccl-tests-wrong-results");
}

}  // namespace
}  // namespace pf::doctor

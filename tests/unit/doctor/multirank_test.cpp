// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A 64-rank job of which two rank logs are given (data/multirank-ib/: rank 0's and rank 3's, in the shapes of
// NCCL 2.23.4 and PyTorch 2.5): rank 3's HCA mlx5_3 gets an IB completion error 12 (no stamp of its own), then every
// rank's watchdog times out. The doctor must name rank 3 first, the IB link (not RoCE) as the cause with the
// watchdog as its consequence, and the 62 ranks whose logs were not given as such.
#include <gtest/gtest.h>

#include <algorithm>

#include "artefacts/timeline.hpp"
#include "test_util.hpp"

namespace pf::doctor {
namespace {

Analysis multirank() {
  const std::string dir = std::string(PF_DOCTOR_DATA) + "/multirank-ib/";
  return analyzeFiles(test::catalog(), {dir + "rank0.log", dir + "rank3.log"});
}

TEST(DoctorMultiRank, FirstFailureIsRank3sIbErrorNotRank0sLaterWatchdog) {
  const Analysis a = multirank();
  ASSERT_TRUE(a.ranks.haveFirst);
  const Evidence& f = a.ranks.firstFailure;
  EXPECT_TRUE(f.file.ends_with("rank3.log")) << f.where();
  EXPECT_EQ(f.line, 23u);
  EXPECT_EQ(f.rank, 3);
  EXPECT_EQ(f.host, "gpu-node-01");
  EXPECT_EQ(f.timestamp, "");
  // Placed by the stamped lines around it in rank 3's log: before rank 0's watchdog at 10:42:37.901.
  EXPECT_EQ(f.notLaterThan, "E304 10:42:37.883906529");
}

// The same two logs read as artefacts: the timeline has no full date (PyTorch's stamps carry no year) and rank 3's
// IB line no stamp of its own, yet it must name the same first failure as the ranks' section, not rank 0's watchdog
// (the first line in input order, and a consequence).
TEST(DoctorMultiRank, TheTimelineNamesRank3FirstAsTheRanksDo) {
  const std::string dir = std::string(PF_DOCTOR_DATA) + "/multirank-ib/";
  ArtefactSession s;
  Analysis a = analyzeFiles(test::catalog(), {dir + "rank0.log", dir + "rank3.log"}, kDefaultBlockSize, s.planner());
  const Result r = s.result(a, {});
  const Json& f = r.params["first_failure"];
  ASSERT_TRUE(f.is_object()) << r.params.dump(2);
  EXPECT_EQ(f["kind"], "rule:ib-verbs.completion-error-12-ib-link");
  EXPECT_EQ(f["rank"], 3);
  EXPECT_EQ(f["line"], 23);
  EXPECT_EQ(f["nic"], "mlx5_3");
  EXPECT_TRUE(f["stamp_of_next_line"].get<bool>());
  EXPECT_TRUE(f["ordered"].get<bool>());
  EXPECT_TRUE(f["time_utc"].is_null());  // no artefact printed a year: no UTC time is made up
  // Rank 3's watchdog (10:42:37.883) before rank 0's (10:42:37.901): the stamps without a year are ordered.
  std::vector<int> watchdogRanks;
  for (const Json& e : r.params["timeline"])
    if (e["kind"] == "rule:timeout-hang.watchdog-timeout" && e["ordered"].get<bool>())
      watchdogRanks.push_back(e["rank"].get<int>());
  EXPECT_EQ(watchdogRanks, (std::vector<int>{3, 0}));
  s.alignRanks(a);
  EXPECT_TRUE(a.ranks.firstFailure.file.ends_with("rank3.log"));
  EXPECT_EQ(a.ranks.firstFailure.line, 23u);
  EXPECT_EQ(a.ranks.firstFailure.timestamp, "");  // still "at or before" its next stamped line
}

TEST(DoctorMultiRank, EveryGivenRankKeepsItsParsedWatchdogEntry) {
  const Analysis a = multirank();
  ASSERT_EQ(a.ranks.watchdog.size(), 2u);
  for (const auto& w : a.ranks.watchdog) {
    EXPECT_EQ(w.seq, 24117) << "rank " << w.rank;
    EXPECT_EQ(w.op, "ALLREDUCE");
    EXPECT_EQ(w.ranForMs, 600012);
  }
}

TEST(DoctorMultiRank, RanksWhoseLogsAreMissingAreSaidSoNotAccused) {
  const Analysis a = multirank();
  EXPECT_EQ(a.ranks.worldSize, 64);
  ASSERT_EQ(a.ranks.ranksWithoutLogs.size(), 62u);
  EXPECT_EQ(a.ranks.ranksWithoutLogs.front(), 1);
  EXPECT_EQ(a.ranks.ranksWithoutLogs.back(), 63);
  EXPECT_TRUE(a.ranks.waitedOn.empty());  // both given ranks timed out: the logs do not say who was behind
  bool said = false;
  for (const auto& n : a.ranks.notes) {
    EXPECT_EQ(n.find("probably stuck"), std::string::npos) << n;
    said = said || n.starts_with("logs of 62 ranks not given (1, 2, 4-63 of 64)");
  }
  EXPECT_TRUE(said);
}

TEST(DoctorMultiRank, AnEmptyRankLogIsNamedAsEmptyNotOnlyAsNotGiven) {
  // Rank 1's log given but empty (it printed nothing before the job was killed): its rank is still without lines,
  // and the notes say which input was empty, so the user does not go looking for a log they did give.
  const Analysis a = analyze(test::catalog(), {{"rank0.log", test::readData("multirank-ib/rank0.log")},
                                               {"rank1.log", ""},
                                               {"rank3.log", test::readData("multirank-ib/rank3.log")}});
  EXPECT_EQ(a.ranks.ranksWithoutLogs.front(), 1);
  EXPECT_NE(std::find(a.ranks.notes.begin(), a.ranks.notes.end(), "1 input is empty (0 bytes): rank1.log"),
            a.ranks.notes.end());
  // Many empty inputs: eight named, the rest counted.
  std::vector<Source> many;
  for (int i = 0; i < 10; ++i) many.push_back({"e" + std::to_string(i) + ".log", ""});
  const Analysis m = analyze(test::catalog(), many);
  EXPECT_NE(
      std::find(m.ranks.notes.begin(), m.ranks.notes.end(),
                "10 inputs are empty (0 bytes): e0.log, e1.log, e2.log, e3.log, e4.log, e5.log, e6.log, e7.log, ..."),
      m.ranks.notes.end());
  // Without an empty input, no such note.
  for (const auto& n : multirank().ranks.notes) EXPECT_EQ(n.find("empty"), std::string::npos) << n;
}

TEST(DoctorMultiRank, IbLinkCauseFirstWithHcaAndPeerAndTheWatchdogAsItsConsequence) {
  const Analysis a = multirank();
  ASSERT_GE(a.diagnoses.size(), 2u);
  const Diagnosis& top = a.diagnoses[0];
  EXPECT_EQ(top.rule->id, "ib-verbs.completion-error-12-ib-link");
  const std::string fix = top.fixText();
  EXPECT_NE(fix.find("mlx5_3"), std::string::npos) << fix;
  EXPECT_NE(fix.find("10.0.1.14<47215>"), std::string::npos) << fix;
  EXPECT_NE(fix.find("NCCL_IB_TIMEOUT"), std::string::npos) << fix;
  EXPECT_EQ(fix.find("GID_INDEX"), std::string::npos) << fix;
  // One line, one cause: the other ib-verbs readings of the same line are folded into it.
  EXPECT_EQ(top.alsoMatched, (std::vector<std::string>{"ib-verbs.completion-error-other", "ib-verbs.verbs-call-failed",
                                                       "ib-verbs.ib-transport-warning"}));
  for (const auto& d : a.diagnoses) {
    EXPECT_NE(d.rule->id, "ib-verbs.completion-error-12-retry");  // RoCE advice on an IB link
    if (d.rule->category == "ib-verbs") {
      EXPECT_EQ(&d, &top) << d.rule->id;
    }
  }
  const auto wd = std::find_if(a.diagnoses.begin(), a.diagnoses.end(),
                               [](const Diagnosis& d) { return d.rule->id == "timeout-hang.watchdog-timeout"; });
  ASSERT_NE(wd, a.diagnoses.end());
  EXPECT_EQ(wd->consequenceOf, top.rule);
}

TEST(DoctorMultiRank, RoceGidsInTheErrorKeepTheRoceAdvice) {
  // NCCL prints GIDs only for the Ethernet link layer: this is RoCE, where the GID advice fits.
  const std::string log =
      "h:1:2 [4] transport/net_ib.cc:2121 NCCL WARN NET/IB: Got completion from peer 10.216.210.236<54862> with "
      "status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.216.210.235 remoteGids::ffff:10.216.210.236 "
      "hca mlx5_4\n";
  EXPECT_EQ(test::topRule(log), "ib-verbs.completion-error-12-retry");
}

TEST(DoctorMultiRank, TheLinkLayerOfNcclsHcaListDecidesWhenTheErrorDoesNotSay) {
  // NCCL 2.20's error names neither the HCA nor GIDs for an IB port; its "NET/IB : Using" line says /IB or /RoCE.
  const std::string error =
      "h:1:2 [3] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.0.1.14<47215> with "
      "status=12 opcode=0 len=0 vendor err 129 (Send)\n";
  const std::string ib = "h:1:1 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_3:1/IB ; OOB eth0:10.0.0.11<0>\n";
  const std::string roce = "h:1:1 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE ; OOB eth0:10.0.0.11<0>\n";
  EXPECT_EQ(test::topRule(ib + error), "ib-verbs.completion-error-12-ib-link");
  EXPECT_EQ(test::topRule(roce + error), "ib-verbs.completion-error-12-retry");
  EXPECT_EQ(test::topRule(ib + roce + error), "ib-verbs.completion-error-12-retry");  // mixed: RoCE stays possible
  EXPECT_EQ(test::topRule(error), "ib-verbs.completion-error-12-retry");              // nothing says which
}

TEST(DoctorMultiRank, ALaterLineWithoutDetailsDoesNotReplaceAParsedWatchdogEntry) {
  // The same rank's timeout repeated later with the message wrapped: no SeqNum on the line.
  const std::string log =
      "[rank3]:[E304 10:42:37.883906529 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=24117, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 "
      "milliseconds before timing out.\n"
      "[rank3]:RuntimeError: [Rank 3] Caught collective operation timeout:\n";
  const Analysis a = test::analyzeText(log);
  ASSERT_EQ(a.ranks.watchdog.size(), 1u);
  EXPECT_EQ(a.ranks.watchdog[0].seq, 24117);
  EXPECT_EQ(a.ranks.watchdog[0].op, "ALLREDUCE");
  // And the other way round: a first line without details gives way to a later one that has them.
  const std::string wrapped =
      "[rank3]:[E304 10:42:37.883906529 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective operation "
      "timeout:\n"
      "[rank3]:  WorkNCCL(SeqNum=24117, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012\n"
      "[rank3]:[E304 10:43:37.907745124 ProcessGroupNCCL.cpp:1895] [Rank 3] Process group watchdog thread terminated "
      "with exception: [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=24117, "
      "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n";
  const Analysis b = test::analyzeText(wrapped);
  ASSERT_EQ(b.ranks.watchdog.size(), 1u);
  EXPECT_EQ(b.ranks.watchdog[0].seq, 24117);
}

TEST(DoctorMultiRank, PrintedEarlierUsesStampsAndBounds) {
  Evidence ib{"rank3.log", 23, "NET/IB: Got completion", "h", 3, "", "", "E304 10:42:37.883906529"};
  Evidence wd0{"rank0.log", 28, "Watchdog caught", "h", 0, "E304 10:42:37.901245117", "", ""};
  Evidence wd3{"rank3.log", 28, "Watchdog caught", "h", 3, "E304 10:42:37.883906529", "", ""};
  Evidence bare{"other.log", 1, "NCCL WARN", "", -1, "", "", ""};
  EXPECT_TRUE(printedEarlier(ib, wd0));
  EXPECT_FALSE(printedEarlier(wd0, ib));
  EXPECT_TRUE(printedEarlier(ib, wd3));  // same bound, same file: line order
  EXPECT_FALSE(printedEarlier(wd3, ib));
  EXPECT_TRUE(printedEarlier(wd0, bare));  // a line with a time before one without
  EXPECT_EQ(rankRanges({1, 2, 4, 5, 6, 9}), "1, 2, 4-6, 9");
  EXPECT_EQ(rankRanges({1, 3, 5, 7}, 2), "1, 3, ... (4 ranks in all)");
}

}  // namespace
}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The Flight Recorder analysis on small made-up dumps, for what the gloo fixtures cannot show: NCCL's entry
// states, an operation mismatch, a ring buffer that dropped old entries.
#include <gtest/gtest.h>

#include "flight_recorder/analysis.hpp"
#include "fr_test_dumps.hpp"

namespace pf::doctor::fr {
namespace {

Entry entry(std::int64_t seq, const std::string& op, const std::string& state = "completed", std::int64_t n = 1024) {
  Entry e;
  e.recordId = seq;
  e.pgName = "0";
  e.pgDesc = "default_pg";
  e.collectiveSeqId = seq;
  e.profilingName = op;
  e.inputSizes = {{n}};
  e.outputSizes = {{n}};
  e.inputDtypes = e.outputDtypes = {"Float"};
  e.state = state;
  return e;
}

Dump dump(int rank, std::vector<Entry> entries, int world = 4) {
  return testing::groupDump(rank, std::move(entries), world);
}

TEST(FrAnalysis, OperationMismatchNamesTheOddRankOut) {
  std::vector<Dump> dumps;
  for (int r = 0; r < 4; ++r)
    dumps.push_back(
        dump(r, {entry(1, "nccl:all_reduce"), entry(2, r == 3 ? "nccl:broadcast" : "nccl:all_reduce", "scheduled")}));
  const Headline h = analyse(dumps).headline;
  EXPECT_EQ(h.kind, VerdictKind::kMismatch);
  EXPECT_EQ(h.field, "operation");
  EXPECT_EQ(h.ranks, std::vector<int>{3});
  EXPECT_EQ(h.culpritValue, "nccl:broadcast");
  EXPECT_EQ(h.op, "nccl:all_reduce");
  EXPECT_EQ(h.seq, 2);
}

TEST(FrAnalysis, EveryRankInsideAndNotCompletedIsIncomplete) {
  std::vector<Dump> dumps;
  for (int r = 0; r < 2; ++r)
    dumps.push_back(dump(r, {entry(1, "nccl:all_reduce"), entry(2, "nccl:all_reduce", "started")}, 2));
  const Report rep = analyse(dumps);
  EXPECT_EQ(rep.headline.kind, VerdictKind::kIncomplete);
  EXPECT_EQ(rep.headline.seq, 2);
  EXPECT_EQ(rep.headline.ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(summaryOf(rep.headline),
            "every rank entered seq 2 nccl:all_reduce in group 0 (default_pg), input sizes [[1024]] and it did not "
            "complete on ranks 0, 1");
}

TEST(FrAnalysis, RanksStalledInACollectiveWithADumpMissingNameTheMissingRankFirst) {
  // NCCL's states: ranks 0-2 are still in seq 2 (started, never completed) and rank 3 left no dump: rank 3 is the
  // one to read first; with ranks 0-2 past seq 2, the same missing dump is only a gap in what was collected.
  std::vector<Dump> stalled, done;
  for (int r = 0; r < 3; ++r) {
    stalled.push_back(dump(r, {entry(1, "nccl:all_reduce"), entry(2, "nccl:all_reduce", "started")}));
    done.push_back(dump(r, {entry(1, "nccl:all_reduce"), entry(2, "nccl:all_reduce")}));
  }
  const Headline h = analyse(stalled).headline;
  EXPECT_EQ(h.kind, VerdictKind::kMissingRank);
  EXPECT_EQ(h.ranks, std::vector<int>{3});
  EXPECT_EQ(h.waiting, (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(h.othersStalled);
  EXPECT_EQ(summaryOf(h),
            "dumps of rank 3 not given, and ranks 0, 1, 2 did not complete seq 2 nccl:all_reduce in group 0 "
            "(default_pg), input sizes [[1024]]: look at rank 3 first (no dump says what happened there; a rank "
            "killed outright writes none)");
  const Headline g = analyse(done).headline;
  EXPECT_EQ(g.kind, VerdictKind::kMissingRank);
  EXPECT_FALSE(g.othersStalled);
  EXPECT_NE(summaryOf(g).find("what they did is unknown"), std::string::npos) << summaryOf(g);
}

TEST(FrAnalysis, EntriesDroppedByTheRingBufferAreNotReadAsNotReached) {
  std::vector<Entry> full, late;
  for (int s = 1; s <= 12; ++s) full.push_back(entry(s, "nccl:all_reduce"));
  for (int s = 10; s <= 12; ++s) late.push_back(entry(s, "nccl:all_reduce"));
  const Headline h = analyse({dump(0, full, 2), dump(1, late, 2)}).headline;
  EXPECT_EQ(h.kind, VerdictKind::kCompletedOk);
  EXPECT_EQ(h.seq, 12);
}

TEST(FrAnalysis, ATieIsSaidToBeOne) {
  const Report r = analyse({dump(0, {entry(1, "nccl:all_reduce", "started", 8)}, 2),
                            dump(1, {entry(1, "nccl:all_reduce", "started", 16)}, 2)});
  EXPECT_EQ(r.headline.kind, VerdictKind::kMismatch);
  EXPECT_EQ(r.headline.ranks, std::vector<int>{1});  // the reference is the side of the lowest rank
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("as many ranks"), std::string::npos) << r.notes[0];
}

}  // namespace
}  // namespace pf::doctor::fr

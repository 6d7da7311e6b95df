// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Point-to-point matching and the relative straggler limit of the Flight Recorder analysis, on small made-up
// dumps: the exact verdict for each way a pair of ranks parts ways, and what cannot be matched said as such.
#include <gtest/gtest.h>

#include "flight_recorder/analysis.hpp"
#include "flight_recorder/p2p_match.hpp"
#include "flight_recorder/straggler.hpp"
#include "fr_test_dumps.hpp"

namespace pf::doctor::fr {
namespace {

// One op of group 0 in the order of `record`; `name` as NCCL writes it ("send 0->1", "recv 1<-0", "all_reduce").
Entry pairOp(std::int64_t record, const std::string& name, std::int64_t p2pSeq, std::int64_t n = 1024,
             std::int64_t epoch = 1, const std::string& dtype = "Float") {
  Entry e;
  e.recordId = record;
  e.pgName = "0";
  e.pgDesc = "default_pg";
  e.collectiveSeqId = epoch;
  e.p2pSeqId = p2pSeq;
  e.isP2p = name.rfind("send", 0) == 0 || name.rfind("recv", 0) == 0;
  e.profilingName = "nccl:" + name;
  e.inputSizes = e.outputSizes = {{n}};
  e.inputDtypes = e.outputDtypes = {dtype};
  e.state = e.isP2p ? "scheduled" : "completed";
  return e;
}

Dump pairDump(int rank, std::vector<Entry> entries, int world = 2) {
  return testing::groupDump(rank, std::move(entries), world);
}

TEST(FrP2p, ParsesPeersAsGroupRanks) {
  P2pCall c;
  ASSERT_TRUE(parseP2p(pairOp(0, "send 0->1", 1), {4, 6}, c));
  EXPECT_TRUE(c.send);
  EXPECT_EQ(c.src, 4);
  EXPECT_EQ(c.dst, 6);
  ASSERT_TRUE(parseP2p(pairOp(0, "recv 1<-?", 1), {4, 6}, c));
  EXPECT_EQ(c.src, -1);
  EXPECT_EQ(c.dst, 6);
  EXPECT_FALSE(parseP2p(pairOp(0, "send 0->2", 1), {4, 6}, c));  // outside the group
  EXPECT_FALSE(parseP2p(pairOp(0, "all_reduce", 0), {4, 6}, c));
}

TEST(FrP2p, SendNeverReceivedNamesThePeer) {
  // Rank 0 sends twice; rank 1 posted one receive and went on to an all_reduce rank 0 never reached.
  const Report r = analyse({pairDump(0, {pairOp(0, "send 0->1", 1), pairOp(1, "send 0->1", 2)}),
                            pairDump(1, {pairOp(0, "recv 1<-0", 1), pairOp(1, "all_reduce", 0, 1024, 2)})});
  const Headline& h = r.headline;
  EXPECT_EQ(h.kind, VerdictKind::kNotReached);
  EXPECT_TRUE(h.p2p);
  EXPECT_EQ(h.ranks, std::vector<int>{1});
  EXPECT_EQ(h.waiting, std::vector<int>{0});
  EXPECT_EQ(h.seq, 2);
  EXPECT_EQ(h.op, "nccl:send 0->1");
  EXPECT_EQ(h.culpritCall, "group 0 (default_pg) seq 2 nccl:all_reduce");  // what rank 1 did instead
  EXPECT_EQ(summaryOf(h),
            "rank 1 never posted the receive matching rank 0's p2p seq 2 nccl:send 0->1 in group 0 (default_pg), "
            "sizes [[1024]]");
  // The collective finding (rank 0 never reached the all_reduce) is explained by the send it waits in.
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[0].verdict.kind, VerdictKind::kNotReached);
  EXPECT_EQ(r.headlineGroup, 1);
}

TEST(FrP2p, ReceiveNeverSentNamesTheSender) {
  const Report r = analyse(
      {pairDump(0, {pairOp(0, "send 0->1", 1)}), pairDump(1, {pairOp(0, "recv 1<-0", 1), pairOp(1, "recv 1<-0", 2)})});
  const Headline& h = r.headline;
  EXPECT_EQ(h.kind, VerdictKind::kNotReached);
  EXPECT_EQ(h.ranks, std::vector<int>{0});
  EXPECT_EQ(h.waiting, std::vector<int>{1});
  EXPECT_EQ(h.op, "nccl:recv 1<-0");
  EXPECT_EQ(summaryOf(h),
            "rank 0 never posted the send matching rank 1's p2p seq 2 nccl:recv 1<-0 in group 0 (default_pg), sizes "
            "[[1024]]");
}

TEST(FrP2p, SizeMismatchNamesTheReceiverAndBothSizes) {
  // p2p_seq_id does not line a pair up: rank 1 counts its receive from 0 before its send to 2.
  const Report r = analyse({pairDump(0, {pairOp(0, "send 0->1", 1)}, 3),
                            pairDump(1, {pairOp(0, "recv 1<-0", 1), pairOp(1, "send 1->2", 2, 1024)}, 3),
                            pairDump(2, {pairOp(0, "recv 2<-1", 1, 2048)}, 3)});
  const Headline& h = r.headline;
  EXPECT_EQ(h.kind, VerdictKind::kMismatch);
  EXPECT_TRUE(h.p2p);
  EXPECT_EQ(h.field, "sizes");
  EXPECT_EQ(h.ranks, std::vector<int>{2});
  EXPECT_EQ(h.waiting, std::vector<int>{1});
  EXPECT_EQ(h.seq, 2);
  EXPECT_EQ(h.culpritSeq, 1);
  EXPECT_EQ(h.culpritValue, "[[2048]]");
  EXPECT_EQ(summaryOf(h),
            "rank 2's p2p seq 1 nccl:recv 2<-1 receives sizes [[2048]] where rank 1's p2p seq 2 nccl:send 1->2 in "
            "group 0 (default_pg) sends [[1024]]");
}

TEST(FrP2p, DtypeMismatch) {
  const Headline h = analyse({pairDump(0, {pairOp(0, "send 0->1", 1, 8, 1, "Float")}),
                              pairDump(1, {pairOp(0, "recv 1<-0", 1, 8, 1, "BFloat16")})})
                         .headline;
  EXPECT_EQ(h.kind, VerdictKind::kMismatch);
  EXPECT_EQ(h.field, "dtypes");
  EXPECT_EQ(h.culpritValue, "[BFloat16]");
}

TEST(FrP2p, MatchedPairsAreCompletedOk) {
  const Report r = analyse({pairDump(0, {pairOp(0, "send 0->1", 1), pairOp(1, "recv 0<-1", 2)}),
                            pairDump(1, {pairOp(0, "recv 1<-0", 1), pairOp(1, "send 1->0", 2)})});
  EXPECT_EQ(r.headline.kind, VerdictKind::kCompletedOk);
  EXPECT_EQ(r.groups.back().verdict.summary, "2 point-to-point send(s) of group 0 matched with their receives");
}

TEST(FrP2p, ALoneOpTheRecorderSawCompleteIsNotBlamed) {
  Entry sent = pairOp(0, "send 0->1", 1);
  sent.state = "completed";
  EXPECT_EQ(analyse({pairDump(0, {sent}), pairDump(1, {})}).headline.kind, VerdictKind::kCompletedOk);
}

TEST(FrP2p, AWrappedBufferIsRealignedOnACollective) {
  // Rank 1's buffer lost its first receive (record 0) and keeps only from its all_reduce (epoch 2) on; rank 0
  // holds every send. Counted from the start, rank 0's first send would look unmatched.
  const Report r = analyse({pairDump(0, {pairOp(0, "send 0->1", 1, 1024, 1), pairOp(1, "all_reduce", 0, 1024, 2),
                                         pairOp(2, "send 0->1", 2, 1024, 2)}),
                            pairDump(1, {pairOp(1, "all_reduce", 0, 1024, 2), pairOp(2, "recv 1<-0", 2, 1024, 2)})});
  EXPECT_EQ(r.headline.kind, VerdictKind::kCompletedOk);
  bool said = false;
  for (const auto& n : r.notes) said |= n.find("rank 1's ring buffer dropped its oldest entries") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(FrP2p, APeerWithoutDumpOrAnySourceIsSaidNotGuessed) {
  const Report r =
      analyse({pairDump(0, {pairOp(0, "send 0->1", 1), pairOp(1, "recv 0<-?", 2)}, 3), pairDump(2, {}, 3)});
  std::string notes;
  for (const auto& n : r.notes) notes += n + "\n";
  EXPECT_NE(notes.find("the sends from rank 0 to rank 1 are not matched: rank 1's dump was not given"),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("rank 0 received from any source"), std::string::npos) << notes;
  EXPECT_FALSE(r.headline.p2p);
}

// Collectives every rank completed, rank r's entry created at base + offsets[r] ms.
std::vector<Dump> arrivals(const std::vector<std::vector<double>>& offsetsPerSeq) {
  std::vector<Dump> out;
  const int world = static_cast<int>(offsetsPerSeq[0].size());
  for (int r = 0; r < world; ++r) {
    std::vector<Entry> es;
    for (std::size_t s = 0; s < offsetsPerSeq.size(); ++s) {
      Entry e = pairOp(static_cast<std::int64_t>(s), "all_reduce", 0, 1024, static_cast<std::int64_t>(s) + 1);
      e.state = "completed";
      e.timeCreatedNs = static_cast<std::int64_t>((1e6 + 10000.0 * s + offsetsPerSeq[s][r]) * 1e6);
      es.push_back(e);
    }
    out.push_back(pairDump(r, es, world));
  }
  return out;
}

TEST(FrStraggler, LateByTheFloorInATightGroup) {
  const Headline h = analyse(arrivals({{0, 2, 1, 3}, {1, 0, 2, 1}, {0, 300, 2, 1}, {2, 1, 0, 3}})).headline;
  EXPECT_EQ(h.kind, VerdictKind::kStraggler);
  EXPECT_EQ(h.ranks, std::vector<int>{1});
  EXPECT_EQ(h.seq, 3);
  EXPECT_NEAR(*h.lateMs, 298, 1);
  EXPECT_EQ(*h.lateLimitMs, kStragglerFloorMs);
}

TEST(FrStraggler, BelowTheFloorIsNoStraggler) {
  EXPECT_EQ(analyse(arrivals({{0, 2, 1, 3}, {0, 200, 2, 1}})).headline.kind, VerdictKind::kCompletedOk);
}

TEST(FrStraggler, ANoisyGroupRaisesTheLimit) {
  // Ranks of this group routinely arrive up to 300 ms apart; rank 1 at 700 ms (580 ms after the rank before it)
  // is within ten of the group's spreads.
  const std::vector<std::vector<double>> noisy = {
      {0, 150, 300, 80}, {220, 0, 90, 300}, {40, 260, 0, 180}, {300, 120, 10, 0}, {0, 700, 60, 120}};
  const Report r = analyse(arrivals(noisy));
  EXPECT_EQ(r.headline.kind, VerdictKind::kCompletedOk);
  EXPECT_EQ(stragglerLimitMs({}), kStragglerFloorMs);
}

TEST(FrStraggler, FarOutsideTheSpreadIsLateEvenInANoisyGroup) {
  const std::vector<std::vector<double>> noisy = {
      {0, 150, 300, 80}, {220, 0, 90, 300}, {40, 260, 0, 180}, {300, 120, 10, 0}, {0, 9000, 60, 120}};
  const Headline h = analyse(arrivals(noisy)).headline;
  EXPECT_EQ(h.kind, VerdictKind::kStraggler);
  EXPECT_EQ(h.ranks, std::vector<int>{1});
  EXPECT_GT(*h.lateLimitMs, 700);
}

}  // namespace
}  // namespace pf::doctor::fr

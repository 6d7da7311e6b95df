// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The Init progress of every communicator is kept (two bits per rank), so that doctor.ranks judges a job of many
// communicators (restarts, one per group) whole; the budget against a crafted log drops the oldest and says so,
// and doctor.info lists the first kMaxCommsListed communicators and counts the rest.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

namespace pf::doctor {
namespace {

std::string commInitLine(int rank, int nranks, const std::string& comm, bool start) {
  return "n" + std::to_string(rank / 8) + ":" + std::to_string(2000 + rank) + ":" + std::to_string(2001 + rank) + " [" +
         std::to_string(rank % 8) + "] NCCL INFO comm 0x77 rank " + std::to_string(rank) + " nranks " +
         std::to_string(nranks) + " cudaDev " + std::to_string(rank % 8) + " busId 1000 commId " + comm +
         (start ? " - Init START\n" : " - Init COMPLETE\n");
}

// 40 communicators of 8 ranks, their lines interleaved (a job restarted again and again, each init's lines
// mixed with the next's). Rank 5 never logs Init START in the third one and rank 6 never completes it: both
// are named although 37 communicators were seen after it (the last 16 alone were judged before).
TEST(DoctorInitProgress, ARankMissingFromAnEarlyCommunicatorIsNamed) {
  const int comms = 40, nranks = 8;
  std::string log;
  for (bool start : {true, false})
    for (int rank = 0; rank < nranks; ++rank)
      for (int c = 0; c < comms; ++c) {
        if (c == 2 && (rank == 5 || (rank == 6 && !start))) continue;
        log += commInitLine(rank, nranks, "0xe" + std::to_string(100 + c), start);
      }
  const Analysis a = test::analyzeText(log);
  ASSERT_EQ(a.info.comms().size(), static_cast<std::size_t>(comms));
  EXPECT_EQ(a.info.communicatorsNotKept(), 0u);
  const auto& early = a.info.comms().at("0xe102");
  EXPECT_EQ(early.ranksStarted, 7u);
  EXPECT_EQ(early.ranksCompleted, 6u);
  EXPECT_FALSE(early.started(5));
  EXPECT_TRUE(early.started(6));
  EXPECT_FALSE(early.completed(6));
  EXPECT_EQ(a.ranks.neverInitialised, std::vector<int>{5});
  EXPECT_EQ(a.ranks.initIncomplete, std::vector<int>{6});
  ASSERT_FALSE(a.ranks.notes.empty());
  EXPECT_NE(a.ranks.notes.back().find("1 rank(s) never logged NCCL Init START (e.g. rank 5)"), std::string::npos)
      << a.ranks.notes.back();
  const Json j = a.info.toJson();
  EXPECT_EQ(j["communicators"].size(), static_cast<std::size_t>(comms));
  EXPECT_FALSE(j.contains("communicator_drops"));
  EXPECT_FALSE(j.contains("communicators_not_listed"));
}

// A rank that left Init incomplete in two communicators is listed once.
TEST(DoctorInitProgress, ARankIncompleteInSeveralCommunicatorsIsListedOnce) {
  std::string log;
  for (const std::string comm : {"0xa1", "0xa2"}) {
    for (int rank = 0; rank < 4; ++rank) log += commInitLine(rank, 4, comm, true);
    for (int rank = 0; rank < 3; ++rank) log += commInitLine(rank, 4, comm, false);
  }
  const Analysis a = test::analyzeText(log);
  EXPECT_EQ(a.ranks.initIncomplete, std::vector<int>{3});
  EXPECT_TRUE(a.ranks.neverInitialised.empty());
}

// A crafted log of communicators of a million ranks each (256 KiB of bits apiece): past kMaxInitBytes the oldest
// are dropped, the newest kept, and the JSON says how many were dropped.
TEST(DoctorInitProgress, CommunicatorsPastTheBudgetAreCounted) {
  const int nranks = InfoExtractor::kMaxInitRank;
  const std::size_t perComm = InfoExtractor::kCommBytes + static_cast<std::size_t>(nranks) / 4;
  const std::size_t comms = InfoExtractor::kMaxInitBytes / perComm + 5;
  std::string log;
  for (std::size_t c = 0; c < comms; ++c) log += commInitLine(1, nranks, "0xf" + std::to_string(1000 + c), true);
  const Analysis a = test::analyzeText(log);
  const std::size_t kept = a.info.comms().size(), dropped = a.info.communicatorsNotKept();
  EXPECT_GT(dropped, 0u);
  EXPECT_EQ(kept + dropped, comms);
  EXPECT_LE(kept * perComm, InfoExtractor::kMaxInitBytes);
  EXPECT_EQ(a.info.comms().count("0xf1000"), 0u);  // the oldest
  ASSERT_EQ(a.info.comms().count("0xf" + std::to_string(1000 + comms - 1)), 1u);
  EXPECT_TRUE(a.info.comms().at("0xf" + std::to_string(1000 + comms - 1)).started(1));
  EXPECT_EQ(a.info.toJson()["communicator_drops"], dropped);
}

// A rank far past the nranks its communicator announced (a garbled line) grows that communicator's bits; one
// past kMaxInitRank is not kept.
TEST(DoctorInitProgress, RanksPastNranksAreKeptUpToTheBound) {
  const Analysis a = test::analyzeText(commInitLine(0, 2, "0xb1", true) + commInitLine(1000, 2, "0xb1", true) +
                                       commInitLine(InfoExtractor::kMaxInitRank, 2, "0xb1", true));
  const auto& c = a.info.comms().at("0xb1");
  EXPECT_TRUE(c.started(1000));
  EXPECT_FALSE(c.started(InfoExtractor::kMaxInitRank));
  EXPECT_EQ(c.ranksStarted, 2u);
  EXPECT_EQ(c.nranks, 2);
}

// More communicators than doctor.info lists: the rows stop at kMaxCommsListed (in id order) and the rest are
// counted, while doctor.ranks still judges them all (a rank missing from the last, unlisted one is named).
TEST(DoctorInitProgress, CommunicatorsPastTheListAreCountedAndStillJudged) {
  const std::size_t comms = InfoExtractor::kMaxCommsListed + 3;
  std::string log;
  for (std::size_t c = 0; c < comms; ++c)
    for (int rank = 0; rank < 4; ++rank)
      if (!(c + 1 == comms && rank == 2)) log += commInitLine(rank, 4, "0xd" + std::to_string(10000 + c), true);
  const Analysis a = test::analyzeText(log);
  EXPECT_EQ(a.info.comms().size(), comms);
  const Json j = a.info.toJson();
  EXPECT_EQ(j["communicators"].size(), InfoExtractor::kMaxCommsListed);
  EXPECT_EQ(j["communicators_not_listed"], 3);
  EXPECT_EQ(a.ranks.neverInitialised, std::vector<int>{2});
}

}  // namespace
}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "tournament.hpp"

#include <gtest/gtest.h>

#include <set>

#include "node_map.hpp"

namespace pf::check {
namespace {

// Every unordered pair exactly once; pairs in a round disjoint; N-1 rounds (even N) or N with one bye each (odd).
TEST(Tournament, EveryPairOnceInDisjointRounds) {
  for (int n = 0; n <= 17; ++n) {
    auto rounds = tournamentRounds(n);
    if (n < 2) {
      EXPECT_TRUE(rounds.empty()) << n;
      continue;
    }
    EXPECT_EQ(rounds.size(), static_cast<size_t>(n % 2 == 0 ? n - 1 : n)) << n;
    std::set<std::pair<int, int>> seen;
    for (const Round& r : rounds) {
      std::set<int> busy;
      for (auto [a, b] : r) {
        EXPECT_LT(a, b);
        EXPECT_GE(a, 0);
        EXPECT_LT(b, n);
        EXPECT_TRUE(busy.insert(a).second) << "node " << a << " twice in a round, n=" << n;
        EXPECT_TRUE(busy.insert(b).second) << "node " << b << " twice in a round, n=" << n;
        EXPECT_TRUE(seen.insert({a, b}).second) << "pair " << a << "-" << b << " twice, n=" << n;
      }
      // Every node busy (even n), all but one (odd n).
      EXPECT_EQ(busy.size(), static_cast<size_t>(n % 2 == 0 ? n : n - 1)) << n;
    }
    EXPECT_EQ(seen.size(), static_cast<size_t>(n * (n - 1) / 2)) << n;
  }
}

TEST(Tournament, PartnerAndBye) {
  auto rounds = tournamentRounds(3);
  int byes = 0;
  for (const Round& r : rounds)
    for (int node = 0; node < 3; ++node) {
      int p = partnerIn(r, node);
      if (p < 0)
        ++byes;
      else
        EXPECT_EQ(partnerIn(r, p), node);
    }
  EXPECT_EQ(byes, 3);  // one bye per round, each node once
}

TEST(Tournament, DisjointRoundsForAFewPairs) {
  // Three pairs sharing node 2 need three rounds; (0, 1) joins the first round where neither node is busy.
  auto rounds = disjointRounds({{0, 2}, {1, 2}, {2, 3}, {0, 1}});
  ASSERT_EQ(rounds.size(), 3u);
  EXPECT_EQ(rounds[0], (Round{{0, 2}}));
  EXPECT_EQ(rounds[1], (Round{{1, 2}}));
  EXPECT_EQ(rounds[2], (Round{{0, 1}, {2, 3}}));
  size_t total = 0;
  for (const Round& r : rounds) {
    std::set<int> seen;
    for (auto [a, b] : r) {
      EXPECT_TRUE(seen.insert(a).second && seen.insert(b).second) << "a node twice in one round";
      ++total;
    }
  }
  EXPECT_EQ(total, 4u);
  EXPECT_TRUE(disjointRounds({}).empty());
}

TEST(NodeMap, GroupsRanksByHostInOrderOfFirstRank) {
  NodeMap m = groupByHost({"b", "b", "a", "c", "a"});
  ASSERT_EQ(m.nodeCount(), 3);
  EXPECT_EQ(m.hosts, (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(m.leader, (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(m.nodeOfRank, (std::vector<int>{0, 0, 1, 2, 1}));
}

}  // namespace
}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
#include "pf/bootstrap.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>

namespace pf {
namespace {

TEST(Bootstrap, LocalIsOneRank) {
  auto b = makeLocalBootstrap();
  EXPECT_EQ(b->size(), 1);
  EXPECT_EQ(b->allGather("x"), std::vector<std::string>{"x"});
  EXPECT_EQ(b->allSum(5), 5);
}

TEST(Bootstrap, ThreadRanksGatherBroadcastAndSum) {
  const int n = 4;
  auto ranks = makeThreadBootstraps(n);
  std::vector<std::vector<std::string>> gathered(n);
  std::vector<std::string> bcast(n);
  std::vector<long long> sums(n);
  std::vector<std::vector<double>> doubles(n);
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      Bootstrap& b = *ranks[r];
      // Variable lengths, repeated rounds: slots must not leak between rounds.
      for (int round = 0; round < 3; ++round) gathered[r] = b.allGather(std::string(r + round, 'a' + r));
      bcast[r] = r == 2 ? "from two" : "";
      b.broadcast(bcast[r], 2);
      sums[r] = b.allSum(r + 1);
      doubles[r] = b.allGatherDouble(r * 0.5);
      b.barrier();
    });
  }
  for (auto& t : threads) t.join();
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(gathered[r], (std::vector<std::string>{"aa", "bbb", "cccc", "ddddd"}));
    EXPECT_EQ(bcast[r], "from two");
    EXPECT_EQ(sums[r], 10);
    EXPECT_EQ(doubles[r], (std::vector<double>{0, 0.5, 1.0, 1.5}));
  }
}

}  // namespace
}  // namespace pf

// SPDX-License-Identifier: Apache-2.0
#include "pf/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace pf::stats {
namespace {

TEST(Stats, NearestRankPercentiles) {
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);
  Summary s = summarize(v);
  EXPECT_EQ(s.n, 100u);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.p50, 50);
  EXPECT_EQ(s.p90, 90);
  EXPECT_EQ(s.p99, 99);
  EXPECT_EQ(s.max, 100);
  EXPECT_DOUBLE_EQ(s.mean, 50.5);
}

TEST(Stats, SmallSamples) {
  std::vector<double> one{7};
  Summary s = summarize(one);
  EXPECT_EQ(s.p50, 7);
  EXPECT_EQ(s.p99, 7);
  EXPECT_EQ(s.stddev, 0);
  EXPECT_EQ(summarize(std::vector<double>{}).n, 0u);
  std::vector<double> twenty;
  for (int i = 0; i < 20; ++i) twenty.push_back(i);
  EXPECT_EQ(summarize(twenty).p99, 19);  // ceil(0.99*20) = 20th value
}

TEST(Stats, MedianAndMad) {
  std::vector<double> v{1, 2, 3, 4, 100};
  EXPECT_EQ(median(v), 3);
  EXPECT_EQ(mad(v), 1);  // deviations 2,1,0,1,97 -> median 1
  std::vector<double> even{4, 1, 3, 2};
  EXPECT_EQ(median(even), 2.5);
  EXPECT_NEAR(robustZ(100, 3, 1), 97 / 1.4826, 1e-9);
  EXPECT_EQ(robustZ(3, 3, 0), 0);
  EXPECT_TRUE(std::isinf(robustZ(4, 3, 0)));
}

}  // namespace
}  // namespace pf::stats

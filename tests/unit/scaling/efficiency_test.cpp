// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "efficiency.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace pf::scaling;

TEST(Efficiency, PerfectScalingIsOne) {
  auto e = efficiency({200, 200, 200}, {100, 100, 100}, 2);
  EXPECT_DOUBLE_EQ(e.median, 1.0);
  EXPECT_DOUBLE_EQ(e.min, 1.0);
  EXPECT_DOUBLE_EQ(e.stddev, 0.0);
}

TEST(Efficiency, RepetitionsDividedByMedianBaseline) {
  // Baseline median 100 (of 90,100,130); 4 ranks: 300/400 = 0.75, 320/400 = 0.8, 360/400 = 0.9.
  auto e = efficiency({320, 300, 360}, {130, 90, 100}, 4);
  EXPECT_DOUBLE_EQ(e.median, 0.8);
  EXPECT_DOUBLE_EQ(e.min, 0.75);
  EXPECT_DOUBLE_EQ(e.max, 0.9);
  EXPECT_NEAR(e.stddev, 0.0763763, 1e-6);
  EXPECT_EQ(e.n, 3);
}

TEST(Efficiency, SpreadOfEvenCountUsesMiddlePair) {
  auto s = spreadOf({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
}

TEST(Efficiency, RejectsMissingBaseline) {
  EXPECT_THROW(efficiency({100}, {}, 2), std::invalid_argument);
  EXPECT_THROW(efficiency({100}, {0}, 2), std::invalid_argument);
  EXPECT_THROW(efficiency({100}, {50}, 0), std::invalid_argument);
}

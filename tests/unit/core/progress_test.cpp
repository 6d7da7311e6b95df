// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The progress estimates (pf/progress.hpp): exact values for known inputs, and the line's wording.
#include "pf/progress.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

TEST(Progress, ShareOfWork) {
  EXPECT_FALSE(pf::secondsLeftByShare(5, 0, 10).has_value());
  EXPECT_DOUBLE_EQ(*pf::secondsLeftByShare(10, 2, 6), 30);  // 5 s per unit, 6 units left
}

TEST(Progress, FitOfTimeAgainstSize) {
  // Units that took 1 + 0.5 s per byte-unit: the line is found exactly, and the sizes left cost 1 + 0.5 x each.
  std::vector<double> x{1, 2, 4}, t{1.5, 2, 3};
  EXPECT_DOUBLE_EQ(*pf::secondsLeftByFit(x, t, {8, 16}), (1 + 4) + (1 + 8));
  // One unit: a fixed cost, the mean so far.
  EXPECT_DOUBLE_EQ(*pf::secondsLeftByFit({4}, {2}, {4, 4, 4}), 6);
  // A falling slope (noise) predicts no less than a fixed cost: never a negative time.
  EXPECT_DOUBLE_EQ(*pf::secondsLeftByFit({1, 2}, {2, 1}, {100}), 1.5);
  EXPECT_FALSE(pf::secondsLeftByFit({}, {}, {1}).has_value());
}

TEST(Progress, Durations) {
  EXPECT_EQ(pf::formatDuration(44.6), "45 s");
  EXPECT_EQ(pf::formatDuration(185), "3 min 05 s");
  EXPECT_EQ(pf::formatDuration(7620), "2 h 07 min");
}

TEST(Progress, LineSaysWhatIsDoneAndTimeLeft) {
  setenv("PREFLIGHT_PROGRESS", "always", 1);
  std::ostringstream out;
  pf::ProgressLine line("sweep all_reduce", false, &out);
  line.update("3/7 sizes done", 12.2);
  line.update("4/7 sizes done", std::nullopt);
  EXPECT_EQ(out.str(),
            "[preflight] sweep all_reduce: 3/7 sizes done, 0 s elapsed, about 12 s left\n"
            "[preflight] sweep all_reduce: 4/7 sizes done, 0 s elapsed, time left not known yet\n");
  std::ostringstream none;
  pf::ProgressLine quiet("scale", true, &none);
  quiet.update("x", 1);
  setenv("PREFLIGHT_PROGRESS", "never", 1);
  pf::ProgressLine off("scale", false, &none);
  off.update("x", 1);
  EXPECT_EQ(none.str(), "");
  unsetenv("PREFLIGHT_PROGRESS");
  pf::ProgressLine fresh("scale", false, &none);
  fresh.update("x", 1);  // a run in its first seconds prints nothing
  EXPECT_EQ(none.str(), "");
}

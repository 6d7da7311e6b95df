// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "perf_model.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace pf::scaling;

TEST(PerfModel, LineFitRecoversExactLine) {
  auto f = fitLine({1, 2, 3, 4}, {3, 5, 7, 9});
  EXPECT_NEAR(f.intercept, 1.0, 1e-12);
  EXPECT_NEAR(f.slope, 2.0, 1e-12);
  EXPECT_NEAR(f.maxRelError, 0.0, 1e-12);
  EXPECT_THROW(fitLine({1, 1}, {2, 3}), std::invalid_argument);
}

TEST(PerfModel, FitsRingCostFromSyntheticSweepAndPredictsLargerWorlds) {
  // Synthetic sweep at p = 4 ranks from known alpha = 5 us, beta = 1e-4 us/B (10 GB/s), ring formula.
  const double alpha = 5, beta = 1e-4;
  const int p = 4;
  std::vector<double> bytes, t;
  for (double s = 1 << 16; s <= (1 << 26); s *= 2) {
    bytes.push_back(s);
    t.push_back(2.0 * (p - 1) * alpha + 2.0 * (p - 1) / p * s * beta);
  }
  auto m = fitCommModel(bytes, t, p, 1 << 16);
  EXPECT_NEAR(m.large.alphaUs, alpha, 1e-6);
  EXPECT_NEAR(m.large.betaUsPerB, beta, 1e-12);
  // At 8 ranks and 100 MB the ring (2*7*5 + 2*7/8*S*beta) beats the tree (2*3*5 + 2*S*beta).
  const double s = 1e8;
  EXPECT_NEAR(m.allReduceUs(s, 8), 2.0 * 7 * alpha + 2.0 * 7 / 8 * s * beta, 1e-3);
  // At 4096 ranks and 8 KiB the latency term dominates and the tree's log2(n) wins.
  EXPECT_NEAR(m.allReduceUs(8192, 4096), 2.0 * 12 * alpha + 2.0 * 8192 * beta, 1e-6);
  EXPECT_EQ(m.allReduceUs(s, 1), 0.0);
}

TEST(PerfModel, StepPredictionHidesCommunicationBehindBackward) {
  CommModel m;
  m.small = m.large = AlphaBeta{0.0, 1e-3, 0};  // 1 ns/B per ring step
  StepModelInput in;
  in.computeUs = 3000;  // backward = 2000 us, starting at 1000 us
  in.otherUs = 100;
  in.bucketBytes = {100000, 100000};
  in.bucketReadyFraction = {0.25, 1.0};
  // 2 ranks: each bucket costs 2*1/2*1e5*1e-3 = 100 us. Bucket 0 ready at 1500, done 1600 (hidden);
  // bucket 1 ready at 3000 (end of backward), done at 3100: 100 us exposed.
  auto p = predictStep(in, m, 2);
  EXPECT_NEAR(p.commUs, 200, 1e-9);
  EXPECT_NEAR(p.exposedUs, 100, 1e-9);
  EXPECT_NEAR(p.stepUs, 3200, 1e-9);
  EXPECT_EQ(predictStep(in, m, 1).exposedUs, 0.0);
}

TEST(PerfModel, StragglerTermComesFromTheReferenceStepSpread) {
  CommModel m;  // no communication cost: only the straggler term differs between sizes
  StepModelInput in;
  in.computeUs = 1000;
  in.otherUs = 0;
  for (int i = 0; i <= 100; ++i) in.stepSamplesUs.push_back(1000 + i);  // quantile q = 1000 + 100 q
  EXPECT_EQ(predictStep(in, m, 1).stragglerUs, 0.0);
  // Median of the max of 2 independent draws = the sqrt(0.5) quantile: 1000 + 70.71; minus the median (1050).
  EXPECT_NEAR(predictStep(in, m, 2).stragglerUs, 100 * std::sqrt(0.5) - 50, 1e-9);
  EXPECT_NEAR(predictStep(in, m, 2).stepUs, 1000 + 100 * std::sqrt(0.5) - 50, 1e-9);
  // From a 2-rank reference, 4 ranks are 2 groups of 2: the same sqrt(0.5) quantile.
  in.baseRanks = 2;
  EXPECT_NEAR(predictStep(in, m, 4).stragglerUs, 100 * std::sqrt(0.5) - 50, 1e-9);
  EXPECT_NEAR(quantile({3, 1, 2}, 0.25), 1.5, 1e-12);
}

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The data-parallelism proof in-process: N trainer replicas on threads (ThreadGroup) end with identical
// parameters, equal within float tolerance to one replica trained on the whole batch; and the trainer's
// bucket schedule starts all-reduces during backward and sees the first complete before backward ends.
#include "trainer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "thread_group.hpp"

using namespace pf::scaling;

namespace {
TrainerSpec smallSpec(const std::string& opt) {
  TrainerSpec t;
  t.model.input = 32;
  t.model.width = 64;
  t.model.depth = 3;
  t.model.output = 4;
  t.optimizer.kind = opt;
  t.optimizer.lr = opt == "adam" ? 1e-3f : 0.05f;
  t.batchPerRank = 16;
  t.bucketCapBytes = 8 * 1024;  // several buckets
  return t;
}

std::vector<std::vector<float>> trainGroup(TrainerSpec spec, int n, int steps) {
  auto group = pf::scaling::test::makeThreadGroup(n);
  std::vector<std::vector<float>> params(n);
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] {
      Trainer t(spec, *group[r]);
      for (int s = 0; s < steps; ++s) t.step(s);
      params[r] = t.model().params();
    });
  for (auto& th : threads) th.join();
  return params;
}

void expectDataParallelEquality(const std::string& opt) {
  const int n = 4, steps = 5;
  auto spec = smallSpec(opt);
  auto group = trainGroup(spec, n, steps);
  for (int r = 1; r < n; ++r) EXPECT_EQ(group[r], group[0]) << "rank " << r << " diverged from rank 0";
  auto single = spec;
  single.batchPerRank = spec.batchPerRank * n;
  auto solo = makeSoloReducer();
  Trainer ref(single, *solo);
  std::vector<float> before = ref.model().params();
  for (int s = 0; s < steps; ++s) ref.step(s);
  const auto& p = ref.model().params();
  double maxDiff = 0, moved = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    maxDiff = std::max(maxDiff, static_cast<double>(std::abs(p[i] - group[0][i])));
    moved = std::max(moved, static_cast<double>(std::abs(p[i] - before[i])));
  }
  EXPECT_GT(moved, 1e-3) << "training must actually change the parameters";
  EXPECT_LT(maxDiff, 1e-5) << "N ranks x batch B must equal 1 rank x batch N*B";
}
}  // namespace

TEST(Trainer, DataParallelEqualsSingleRankSgd) { expectDataParallelEquality("sgd"); }
TEST(Trainer, DataParallelEqualsSingleRankAdam) { expectDataParallelEquality("adam"); }

TEST(Trainer, LossDecreases) {
  auto spec = smallSpec("sgd");
  auto solo = makeSoloReducer();
  Trainer t(spec, *solo);
  const double first = t.step(0).loss;
  double last = first;
  for (int s = 1; s < 40; ++s) last = t.step(s % 4).loss;
  EXPECT_LT(last, first);
}

TEST(Trainer, BucketsStartDuringBackwardAndTheFirstCompletesBeforeItEnds) {
  auto spec = smallSpec("sgd");
  spec.model.depth = 5;
  // A bucket completes at its second poll after starting.
  pf::scaling::test::LaggingReducer lag(1);
  Trainer t(spec, lag);
  auto timing = t.step(0);
  const auto& ev = t.lastEvents();
  ASSERT_GE(ev.size(), 3u);
  // A bucket starts as soon as the backward of its lowest layer is done (depth - layer layers finished).
  for (std::size_t b = 0; b < ev.size(); ++b)
    EXPECT_EQ(ev[b].startedAfterLayers, spec.model.depth - t.buckets()[b].readyAfterLayer) << "bucket " << b;
  EXPECT_LT(ev[0].startedAfterLayers, spec.model.depth);
  EXPECT_LT(ev[0].completedAfterLayers, spec.model.depth) << "first all-reduce overlapped the rest of backward";
  for (std::size_t b = 1; b < ev.size(); ++b) EXPECT_GE(ev[b].startedAfterLayers, ev[b - 1].startedAfterLayers);
  EXPECT_GE(timing.computeUs, 0.0);
  EXPECT_GE(timing.stepUs, timing.computeUs);
}

TEST(Trainer, CheckSumSeesEveryParameter) {
  auto spec = smallSpec("sgd");
  Mlp a(spec.model), b(spec.model);
  EXPECT_EQ(a.checksum(), b.checksum());
  b.params().back() += 1e-3f;
  EXPECT_NE(a.checksum(), b.checksum());
}

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The shared world-size loop (world_size_runner.hpp) on in-process groups (ThreadGroup): with the real CPU
// trainer, the row a world size produces; with a scripted device, what the loop asks of a trainer (a fresh one
// per repetition, warm-up untimed, the reference on rank 0 only) and what its equality checks conclude.
#include "world_size_runner.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <thread>

#include "cpu_device.hpp"
#include "thread_group.hpp"

using namespace pf::scaling;

namespace {

ScaleOptions smallOptions() {
  ScaleOptions o;
  o.trainer.model.input = 16;
  o.trainer.model.width = 32;
  o.trainer.model.depth = 3;
  o.trainer.model.output = 4;
  o.trainer.batchPerRank = 8;
  o.trainer.bucketCapBytes = 4 * 1024;
  o.ranks = {1, 2};
  o.reps = 2;
  o.steps = 3;
  o.warmup = 1;
  return o;
}

// Runs measureWorldSize on n thread ranks, each with the device `make` returns; the rows by rank.
template <typename Make>
std::vector<pf::Json> onThreads(const ScaleOptions& o, int n, Make make) {
  auto group = test::makeThreadGroup(n);
  std::vector<pf::Json> rows(static_cast<size_t>(n));
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] {
      auto device = make(r);
      rows[static_cast<size_t>(r)] = measureWorldSize(o, *group[static_cast<size_t>(r)], *device);
    });
  for (auto& t : threads) t.join();
  return rows;
}

TEST(WorldSizeRunner, CpuRowOnRankZero) {
  const ScaleOptions o = smallOptions();
  auto rows = onThreads(o, 2, [](int) { return makeCpuDevice(); });
  EXPECT_TRUE(rows[1].is_null());
  const pf::Json& row = rows[0];
  EXPECT_EQ(row["ranks"], 2);
  EXPECT_EQ(row["device"], "cpu");
  EXPECT_EQ(row["global_batch"], 16);
  EXPECT_TRUE(row["ranks_identical"].get<bool>());
  EXPECT_TRUE(row["equal_to_single_rank"].get<bool>()) << row["max_param_diff_vs_single_rank"];
  EXPECT_EQ(row["step_us_samples"].size(), static_cast<size_t>(o.reps * o.steps));
  EXPECT_EQ(row["throughput_reps_sps"].size(), static_cast<size_t>(o.reps));
  for (const char* field : {"throughput_sps", "step_us_p50", "step_us_p90", "compute_us", "comm_us", "exposed_comm_us",
                            "rest_us", "buckets", "checksum"})
    EXPECT_TRUE(row.contains(field)) << field;
  EXPECT_FALSE(row.contains("max_param_diff_vs_cpu"));
}

// A trainer whose parameters are its rank's offset plus the steps it took; it counts its steps.
struct Script {
  std::atomic<int> trainers{0}, steps{0}, referenceBatch{0};
  float rankOffset = 0;  ///< added per rank: != 0 makes the ranks differ
};

class ScriptedTrainer final : public ScaleTrainer {
 public:
  ScriptedTrainer(Script& s, float offset) : s_(s), offset_(offset) {}
  StepTiming step(long long) override {
    ++taken_;
    ++s_.steps;
    return StepTiming{100, 60, 30, 10, 30, 0};
  }
  const std::vector<BucketEvent>& lastEvents() const override { return events_; }
  std::vector<float> params() override { return {offset_ + static_cast<float>(taken_)}; }
  double checksum() override { return params()[0]; }

 private:
  Script& s_;
  float offset_;
  int taken_ = 0;
  std::vector<BucketEvent> events_{BucketEvent{1, 2}, BucketEvent{3, 3}};
};

class ScriptedDevice final : public ScaleDevice {
 public:
  ScriptedDevice(Script& s, int rank) : s_(s), rank_(rank) {}
  std::string name() const override { return "scripted"; }
  std::unique_ptr<ScaleTrainer> makeTrainer(const TrainerSpec& spec, GradReducer& group) override {
    ++s_.trainers;
    if (group.size() == 1) s_.referenceBatch = spec.batchPerRank;
    return std::make_unique<ScriptedTrainer>(s_, group.size() == 1 ? 0 : s_.rankOffset * static_cast<float>(rank_));
  }
  pf::Json extraFields(const TrainerSpec&, int steps, const std::vector<float>& ref) override {
    return pf::Json{{"reference_steps", steps}, {"reference_param", ref.at(0)}};
  }

 private:
  Script& s_;
  int rank_;
};

TEST(WorldSizeRunner, EqualityBoundIsTenTimesTheRoundingWithAFloor) {
  ScaleOptions o = smallOptions();
  const std::vector<float> params{0.5f, -3.0f, 2.0f};
  // The floor: 4 x the largest |parameter| x 2^-23 (float32's relative precision) per step trained.
  const double floor = 4 * std::ldexp(3.0, -23) * (o.warmup + o.steps);
  EXPECT_DOUBLE_EQ(equalityBound(0, params, o), floor);
  EXPECT_DOUBLE_EQ(equalityBound(1e-3, params, o), 1e-2);
  o.equalityFactor = 3;
  EXPECT_DOUBLE_EQ(equalityBound(1e-3, params, o), 3e-3);
}

TEST(WorldSizeRunner, FreshTrainerPerRepAndOneReference) {
  ScaleOptions o = smallOptions();
  Script s;
  auto rows = onThreads(o, 2, [&](int r) { return std::make_unique<ScriptedDevice>(s, r); });
  // 2 ranks x 2 repetitions, and rank 0's two single-rank references (the second with each batch reversed,
  // to measure float32 rounding); every one warm-up + timed steps.
  EXPECT_EQ(s.trainers, 2 * o.reps + 2);
  EXPECT_EQ(s.steps, (2 * o.reps + 2) * (o.warmup + o.steps));
  EXPECT_EQ(s.referenceBatch, 16);  // the whole global batch
  const pf::Json& row = rows[0];
  EXPECT_EQ(row["device"], "scripted");
  EXPECT_EQ(row["reference_steps"], o.warmup + o.steps);
  EXPECT_EQ(row["reference_param"], o.warmup + o.steps);
  EXPECT_TRUE(row["ranks_identical"].get<bool>());
  EXPECT_TRUE(row["equal_to_single_rank"].get<bool>());
  EXPECT_EQ(row["step_us_p50"], 100);
  EXPECT_EQ(row["comm_us"], 30);
  EXPECT_EQ(row["exposed_comm_us"], 10);
  EXPECT_EQ(row["buckets"], 2);
  EXPECT_EQ(row["buckets_completed_during_backward"], 1);  // completed after 2 of 3 layers
}

TEST(WorldSizeRunner, DivergedRanksAreReported) {
  ScaleOptions o = smallOptions();
  Script s;
  s.rankOffset = 1.0f;  // rank 1 ends one unit away from rank 0 and from the reference
  auto rows = onThreads(o, 2, [&](int r) { return std::make_unique<ScriptedDevice>(s, r); });
  EXPECT_FALSE(rows[0]["ranks_identical"].get<bool>());
  EXPECT_TRUE(rows[0]["equal_to_single_rank"].get<bool>());  // rank 0's own parameters match
  o.strong = true;  // the global batch stays that of the smallest N: 8 samples over 2 ranks
  Script strong;
  rows = onThreads(o, 2, [&](int r) { return std::make_unique<ScriptedDevice>(strong, r); });
  EXPECT_EQ(rows[0]["batch_per_rank"], 4);
  EXPECT_EQ(strong.referenceBatch, 8);
}

}  // namespace

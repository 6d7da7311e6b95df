// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The measurements one world size collects (world_size_runner.cpp, for the CPU and the CUDA trainer alike), so
// that both produce the same row fields the same way: per step the slowest rank's step time and the
// group's mean compute, communication, exposed communication and rest; per repetition the throughput over the
// slowest rank's wall time and how many buckets completed during backward.
#pragma once

#include <vector>

#include "pf/result.hpp"
#include "reducer.hpp"
#include "trainer.hpp"

namespace pf::scaling {

class StepStats {
 public:
  /// Collective over the group: reduces one step's timing across its n ranks.
  void addStep(const StepTiming& st, GradReducer& g, int n);
  /// Collective: one repetition of `steps` steps of `globalBatch` samples that took `wallSeconds` on this rank.
  void addRep(double wallSeconds, int globalBatch, int steps, const std::vector<BucketEvent>& events, int depth,
              GradReducer& g);
  /// throughput_sps (spread), throughput_reps_sps, step_us_p50/p90, step_us_samples, compute_us, comm_us,
  /// exposed_comm_us, rest_us (medians), buckets and buckets_completed_during_backward (per repetition).
  Json rowFields() const;

 private:
  std::vector<double> thr_, stepUs_, computeUs_, commUs_, exposedUs_, restUs_;
  int overlapped_ = 0, buckets_ = 0, reps_ = 0;
};

}  // namespace pf::scaling

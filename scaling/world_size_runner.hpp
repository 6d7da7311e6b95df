// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One world size of `preflight scale`, written once for every device (the CPU trainer in scale_runner.cpp,
// the CUDA trainer in cuda/cuda_runner.cpp). A device provides only its trainer: make one, step it, read its
// parameters; the loop, the statistics, the equality checks and the row are here.
//
// Per world size N: `reps` repetitions, each a fresh model trained `warmup` untimed + `steps` timed steps
// (StepStats: the slowest rank's step time, the group's compute/communication split, throughput over the
// slowest rank's wall time). The last repetition's parameters are checked for equality across ranks (max and
// min of the checksums agree) and, on rank 0, against a single-rank reference: the same device's trainer on
// the whole global batch for the same steps. Row fields are documented in docs/scale.md.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pf/result.hpp"
#include "reducer.hpp"
#include "scale_runner.hpp"
#include "trainer.hpp"

namespace pf::scaling {

/// One device's data-parallel trainer, as the repetition loop drives it.
class ScaleTrainer {
 public:
  virtual ~ScaleTrainer() = default;
  /// One training step on global step index `step`; returns when the step is done (on the device too).
  virtual StepTiming step(long long step) = 0;
  /// The last step's bucket events, in bucket order (Trainer::lastEvents()).
  virtual const std::vector<BucketEvent>& lastEvents() const = 0;
  /// The parameters on the host, forward layout (Mlp::params()), and Mlp::checksum() of them.
  virtual std::vector<float> params() = 0;
  virtual double checksum() = 0;
};

/// A device's trainers for one world size; made once per world size on each rank of its group.
class ScaleDevice {
 public:
  virtual ~ScaleDevice() = default;
  /// The row's `device`: "cpu" or "cuda".
  virtual std::string name() const = 0;
  /// A fresh trainer on `group`: the world size's group, or a group of one for the single-rank reference.
  virtual std::unique_ptr<ScaleTrainer> makeTrainer(const TrainerSpec& spec, GradReducer& group) = 0;
  /// Device-specific row fields, on rank 0 only, given the single-rank reference (its spec, the steps it was
  /// trained, its final parameters); CUDA compares them with the CPU trainer's. None by default.
  virtual Json extraFields(const TrainerSpec& reference, int steps, const std::vector<float>& referenceParams) {
    (void)reference, (void)steps, (void)referenceParams;
    return Json::object();
  }
};

/// How far a correct data-parallel run may be from the single-rank reference: opt.equalityFactor x
/// `roundingDiff` (the reference against itself with every batch summed in the other order), at least
/// 4 x 2^-23 x max(1, largest |parameter|) per step trained.
double equalityBound(double roundingDiff, const std::vector<float>& params, const ScaleOptions& opt);

/// The repetitions on `group` (collective over it; N = group.size()): the row on group rank 0, null elsewhere.
Json measureWorldSize(const ScaleOptions& opt, GradReducer& group, ScaleDevice& device);

using MakeScaleDevice = std::function<std::unique_ptr<ScaleDevice>(GradReducer& group)>;

/// Collective over every launched rank: the first `n` form the group (makeMpiReducer), each makes its device
/// and measures; the others, and the group while rank 0 trains the reference, wait sleeping in idleBarrier() so
/// the ranks at work keep the cores. Returns the row on world rank 0, null elsewhere.
Json runWorldSizeOn(const ScaleOptions& opt, int n, const MakeScaleDevice& makeDevice);

}  // namespace pf::scaling

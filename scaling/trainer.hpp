// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The data-parallel trainer (DDP's scheme on the CPU): forward; backward layer by layer, and after each
// layer every bucket whose gradients are now complete gets its all-reduce started while the remaining layers
// compute; outstanding all-reduces are polled between layers; at the end of backward we wait for the rest
// (buckets that only became complete with the last layer are reduced then, with the blocking all-reduce),
// divide by the group size (averaging), and take the optimizer step.
//
// Timing per step: compute = forward + backward (polls excluded), exposed = the wait after backward (the
// communication not hidden behind compute), comm = from a bucket's start to when we saw it complete, summed
// over the union of intervals (at least the exposed part; an upper bound for the rest, since completion is
// observed only at polls).
#pragma once

#include <vector>

#include "buckets.hpp"
#include "model.hpp"
#include "optimizer.hpp"
#include "reducer.hpp"

namespace pf::scaling {

/// A deliberate error for tests of the equality proof: `delta` added to one gradient element on one rank, at
/// one step, before the gradients are reduced. Off (rank -1) in every real run.
struct PlantedError {
  int rank = -1;
  long long step = -1;
  float delta = 1.0f;
};

struct TrainerSpec {
  ModelSpec model;
  OptimizerSpec optimizer;
  int batchPerRank = 32;
  std::size_t bucketCapBytes = 25u << 20;
  bool reversedSamples = false;  ///< each batch's samples last first (syntheticBatch)
  PlantedError plant;
};

struct StepTiming {
  double stepUs = 0, computeUs = 0, commUs = 0, exposedUs = 0;
  double restUs = 0;  ///< gradient averaging + optimizer step
  double loss = 0;
};

/// Where each bucket's all-reduce started and where its completion was observed, counted in backward layers
/// finished (depth = all of them; so a completion seen at a value < depth overlapped backward).
struct BucketEvent {
  int startedAfterLayers = 0;
  int completedAfterLayers = -1;
};

class Trainer {
 public:
  Trainer(const TrainerSpec& spec, GradReducer& group);
  /// One training step on global step index `step` (data shard chosen by the group rank).
  StepTiming step(long long step);
  const std::vector<Bucket>& buckets() const { return buckets_; }
  /// The last step's bucket events, in bucket order.
  const std::vector<BucketEvent>& lastEvents() const { return events_; }
  Mlp& model() { return model_; }

 private:
  TrainerSpec spec_;
  GradReducer& group_;
  Mlp model_;
  Optimizer opt_;
  std::vector<Bucket> buckets_;
  std::vector<BucketEvent> events_;
  std::vector<float> x_, y_;
};

}  // namespace pf::scaling

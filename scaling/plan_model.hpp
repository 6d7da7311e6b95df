// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight plan`: the step time of a workload (workload.hpp) on N nodes of G GPUs, from the fabric model
// (fabric_model.hpp) and the step's collectives (comm_volume.hpp), with no training run.
//   compute C = step_compute_ms; forward C/3, backward 2C/3 (2 and 4 FLOPs per parameter and token).
//   The gradients (or FSDP's units) come in buckets of bucket_cap_mb, ready evenly through backward; each
//   bucket's collectives run one after another as soon as it is ready (perf_model.hpp's predictStep), and what
//   ends after backward is exposed. FSDP's forward all-gathers run ahead of the layers (prefetch): the first is
//   always exposed, the rest only where they outlast a unit's forward. ZeRO-2's all-gather of the updated
//   parameters and tensor parallelism's activation all-reduces are on the critical path.
//   With `overlap` a fraction x, x of each phase's communication is hidden, at most the phase's compute.
//   A reduce-scatter or all-gather of S costs half an all-reduce of S (the ring all-reduce is one of each).
//   E(N) = C / step: the share of the step spent computing (weak scaling: the per-GPU batch is fixed).
//   The band: each collective's cost moved by its level's fit error (0 for a line-rate bound).
#pragma once

#include <string>
#include <vector>

#include "fabric_model.hpp"
#include "pf/result.hpp"
#include "workload.hpp"

namespace pf::scaling {

struct PlanInput {
  Workload workload;
  FabricModel fabric;
  int gpusPerNode = 8;
  std::vector<int> nodes;
  double targetEfficiency = 0.8;
  std::vector<double> sizes;  ///< all-reduce sizes (bytes) whose busbw to predict at each node count
};

/// One allocation's step: compute, each collective's time split into exposed and hidden, samples/s, E(N) and
/// its band, time and cost to samples_to_train. @throws UsageError when tensor_parallel does not divide G.
Json planAllocation(const PlanInput& in, int nodes);

/// Every row, the largest node count whose E(N) stays at or above the target (and with the band's ends), the
/// buckets at the largest allocation asked about, the bucket caps tried, and the predicted busbw per size.
/// {"rows", "nodes_at_target", "buckets", "caps", "best_cap_mb", "recommend_cap", "sizes"}
Json buildPlan(const PlanInput& in);

}  // namespace pf::scaling

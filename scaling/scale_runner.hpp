// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The scaling sweep. Every world size N runs on the first N launched ranks as one MPI sub-communicator
// (MPI_Comm_split), inside the same launch: one mpirun start-up instead of one per size, and the same
// processes (pinned the same way) serve every N. Ranks outside the group wait, sleeping, in idleBarrier().
// What one N measures (repetitions, equality checks, the row) is world_size_runner.hpp, shared with CUDA.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pf/result.hpp"
#include "trainer.hpp"

namespace pf::scaling {

struct ScaleOptions {
  TrainerSpec trainer;  ///< batchPerRank = the weak-scaling per-rank batch
  std::vector<int> ranks{1, 2};
  int reps = 3, steps = 10, warmup = 2;
  bool strong = false;              ///< fixed global batch = batchPerRank x smallest N
  double equalityTolerance = 1e-4;  ///< PyTorch mode: max |param difference| vs its single-rank reference
  /// Native trainers: the data-parallel parameters may differ from the single-rank reference by this many
  /// times the difference float32 rounding alone makes (equalityBound in world_size_runner.hpp).
  double equalityFactor = 10;
  /// Called on world rank 0 after each repetition and each single-rank reference training: what was done and
  /// its work as worldSizeWork() counts it. Empty: nothing is called. Progress only; no measurement reads it.
  std::function<void(const std::string& what, double work)> onWork;
};

/// The work of world size `n` in samples trained per rank one after the other: every repetition's warm-up and
/// timed steps at the per-rank batch, and rank 0's two single-rank references on the whole global batch. The
/// progress estimate weighs world sizes and repetitions by it (a reference of N ranks' batch costs N steps).
double worldSizeWork(const ScaleOptions& opt, int n);

/// BLAS threads per rank: `requested` when > 0, else cores / ranks on this node (at least 1).
int blasThreadsPerRank(int requested, int ranksOnNode);
/// Sets OpenBLAS's thread count for this process to blasThreadsPerRank(requested, localRanks). The same count serves
/// every world size, so the smallest N (the model's reference) is measured with the per-rank cores the largest N gets;
/// N ranks x default threads would oversubscribe the cores only at the larger sizes. Returns the count in effect.
int useBlasThreads(int requested, int localRanks);

/// One world size's measurements with the CPU trainer (runWorldSizeOn with makeCpuDevice), filled on world
/// rank 0 (other ranks get an empty object). Collective over all launched ranks. Row fields: docs/scale.md.
Json runWorldSize(const ScaleOptions& opt, int n);

/// Adds efficiency (with spread) to every row, given the rows in --ranks order (needs a 1-rank row, or uses
/// the smallest N scaled linearly, and says so in `efficiency_base`).
void addEfficiency(Json& rows);

}  // namespace pf::scaling

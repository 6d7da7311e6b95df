// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// GradReducer: the trainer's view of the data-parallel group. It starts a non-blocking sum all-reduce of one
// bucket, lets the caller drive progress between backward layers (MPI progresses non-blocking collectives
// only inside MPI calls unless a progress thread exists, hence test() between layers), and waits for all.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace pf::scaling {

class GradReducer {
 public:
  virtual ~GradReducer() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Starts summing `count` floats at `data` across the group, in place; returns a handle.
  virtual int start(float* data, std::size_t count) = 0;
  /// Progresses outstanding work; true when handle `h` has completed.
  virtual bool test(int h) = 0;
  /// Blocks until handle `h` has completed.
  virtual void wait(int h) = 0;
  /// Sums now, blocking: for buckets that become ready when backward is over, with nothing left to overlap.
  /// MPI overrides it with MPI_Allreduce, the primitive `preflight sweep all_reduce` measures; Open MPI's
  /// non-blocking collectives (libnbc) measured 2-4x slower for the same bytes on 2 ranks here (docs/scale.md).
  virtual void reduceNow(float* data, std::size_t count) { wait(start(data, count)); }
  /// Sum of one double across the group (blocking; for checksums and timings).
  virtual double allSum(double v) = 0;
  /// Max of one double across the group (blocking).
  virtual double allMax(double v) = 0;
  virtual void barrier() = 0;
};

/// A group of one: every all-reduce is complete at once.
std::unique_ptr<GradReducer> makeSoloReducer();

/// The first `n` ranks of MPI_COMM_WORLD as one group (MPI_Comm_split); nullptr on ranks >= n. Every world
/// rank must call it (it is collective). Throws pf::UsageError when this build has no MPI and n > 1.
std::unique_ptr<GradReducer> makeMpiReducer(int n);

/// Whether this build can make MPI groups.
bool haveMpiReducer();

/// Every launched rank meets here (collective over MPI_COMM_WORLD; a no-op without MPI). It waits by sleeping
/// between polls, so the ranks outside a world size's group leave the cores to the ranks measuring: a spinning
/// MPI_Barrier would take a core's share from the 1-rank reference that the other sizes do not lose.
void idleBarrier();

}  // namespace pf::scaling

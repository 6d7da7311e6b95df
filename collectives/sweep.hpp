// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The sweep driver: the one size x type x op loop for every collective and backend.
//
// Per size and placement (out-of-place first, then in-place, as nccl-tests' BenchTime):
//   1. inputs are written (always: uninitialised floats can be denormals that slow host reductions);
//   2. warm-up operations, then a barrier;
//   3. the timed loop: host clock around `iters` launched operations and one completion; the time per op is
//      averaged across ranks (nccl-tests' default -a 1);
//   4. per-iteration timing (optional, a separate loop so the aggregate loop stays a bare loop): each op timed
//      alone, the per-iteration time taken as the slowest rank's, giving min/p50/p99/max; the rank skew is
//      the slowest rank's p50 over the median rank p50;
//   5. the check: `checkIters` times, inputs rewritten, one op, the receive window compared exactly with the
//      expected output; wrong elements are summed over ranks.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "collective.hpp"
#include "pf/bootstrap.hpp"
#include "pf/result.hpp"
#include "pf/sweep_row.hpp"

namespace pf::collectives {

struct SweepOptions {
  uint64_t minBytes = 8;
  uint64_t maxBytes = 32ull << 20;
  uint64_t stepBytes = 1ull << 20;  ///< linear step, used when stepFactor <= 1
  uint64_t stepFactor = 2;          ///< geometric step; 1 = linear
  int iters = 20;
  int warmup = 5;      ///< nccl-tests' -w default
  int checkIters = 1;  ///< 0 = no correctness check (the wrong column shows N/A)
  /// Passes over every size (nccl-tests' -N). Each pass measures every size again, a whole sweep later, so
  /// a few milliseconds of interference on a shared host cannot decide a size's figure in every pass.
  int cycles = 1;
  bool perIterTiming = true;
  /// Host buffers of 2 MiB and more on transparent huge pages (MPI backend; pf/host_buffer.hpp).
  bool hugePages = false;
  int root = 0;
  uint64_t seed = 0x5eed;
  std::vector<DataType> dtypes{DataType::kFloat};
  std::vector<RedOp> ops{RedOp::kSum};
};

/// The sizes a sweep visits, as nccl-tests' loop: min, then *factor or +step, while <= max.
std::vector<uint64_t> sweepSizes(const SweepOptions& o);

/// Checks the options against the collective and world size. @throws UsageError saying what to change.
void validateOptions(const SweepOptions& o, const Collective& c, int nranks);

/// Called on rank 0 after each size: the result so far (params set, rows up to now) and the index of the first
/// row this size added (its out-of-place and in-place rows).
using RowCallback = std::function<void(const Result& running, size_t firstNewRow)>;
/// Called on rank 0 after each size: `done` of the sweep's units (one size of one type and op in one cycle) are
/// measured, and `unitBytes` lists the size in bytes of every unit in the order they run (done + left).
using ProgressCallback = std::function<void(size_t done, const std::vector<uint64_t>& unitBytes)>;

struct SweepCallbacks {
  RowCallback onRow;
  ProgressCallback onProgress;
};

/// Runs the sweep on every rank (collective call). Rank 0's Result holds all rows; other ranks' hold theirs
/// too (the times are already combined), so any rank can report.
Result runSweep(Backend& backend, Bootstrap& boot, const Collective& coll, const SweepOptions& opts,
                const SweepCallbacks& callbacks = {});

}  // namespace pf::collectives

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One measured row of a collective sweep: one size, data type, op and placement (out-of-place or in-place).
// nccl-tests prints both placements on one line; here each placement is its own row so that tools can filter
// on `placement`. The numbers mean exactly what nccl-tests' columns mean (nccl-tests' doc/PERFORMANCE.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pf/result.hpp"

namespace pf {

struct SweepRow {
  std::string collective;        ///< all_reduce, all_gather, ...
  uint64_t size_bytes = 0;       ///< max(send, recv) bytes of one rank, as nccl-tests' `size` column
  uint64_t count = 0;            ///< per-rank element count passed to the collective
  std::string dtype;             ///< float, bfloat16, int8, ...
  std::string op;                ///< sum, prod, max, min, avg, or "none" for data-movement collectives
  int root = -1;                 ///< root rank of rooted collectives, -1 otherwise
  std::string placement;         ///< "out" (separate buffers) or "in" (in-place)
  double time_us = 0;            ///< mean time per operation, averaged across ranks
  double algbw_gbps = 0;         ///< algorithm bandwidth, GB/s
  double busbw_gbps = 0;         ///< bus bandwidth = algbw x the collective's factor
  std::optional<int64_t> wrong;  ///< mismatching elements summed over ranks; nullopt when not checked
  // Per-iteration timing (a separate timed loop, one timestamp pair per operation). nullopt when disabled.
  std::optional<double> iter_min_us, iter_p50_us, iter_p99_us, iter_max_us;
  /// p50 of the slowest rank divided by the median of the ranks' p50s (1.0 = perfectly even).
  std::optional<double> rank_skew;
  std::optional<int> slowest_rank;
  /// Which pass over the sizes measured this row (1-based), when the sweep ran several (-N); nullopt for one.
  std::optional<int> cycle;
};

Json toJson(const SweepRow& row);
/// @throws UsageError naming the missing or mistyped field.
SweepRow sweepRowFromJson(const Json& j);

/// What shaped a sweep (the `params` of a result of kind sweep).
struct SweepParams {
  std::string collective, backend;
  int ranks = 0;
  uint64_t min_bytes = 0, max_bytes = 0;  ///< max_bytes after any reduction for memory
  uint64_t step_factor = 1, step_bytes = 0;
  int iters = 0, warmup_iters = 0, check_iters = 0;
  bool per_iter_timing = false;
  int root = -1;            ///< -1 for collectives without a root
  int cycles = 1;           ///< passes over all sizes (-N, nccl-tests' run_cycles); rows carry their cycle when > 1
  bool huge_pages = false;  ///< --huge-pages: host buffers of 2 MiB and more advised for transparent huge pages
};

/// What a sweep found overall (the `metrics` of a result of kind sweep).
struct SweepMetrics {
  double avg_busbw_gbps = 0;  ///< mean over every row, as nccl-tests' "Avg bus bandwidth"
  double peak_busbw_gbps = 0;
  int64_t out_of_bounds = 0;           ///< rows with a wrong element
  std::optional<int64_t> wrong_total;  ///< wrong elements summed; nullopt when not checked
};

Json toJson(const SweepParams& p);
Json toJson(const SweepMetrics& m);
/// Missing fields keep their defaults (documents of older versions); a mistyped one throws UsageError.
SweepParams sweepParamsFromJson(const Json& j);
SweepMetrics sweepMetricsFromJson(const Json& j);

}  // namespace pf

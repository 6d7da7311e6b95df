// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight compare BASE NEW...`: the same figures of two or more runs side by side, as a result document
// of its own (results of kind "comparison", rows pf::ComparisonRow), so every reporter shows it and CI can
// gate on its exit code.
//
// What counts as a regression, and why:
//  - Sweeps, per collective, type/op and size, judged the way `preflight check` judges sizes: a size at least
//    4x the base run's bandwidth-delay product is bandwidth-bound and judged by busbw; a smaller one is
//    latency-bound and judged by time, and only when it grew by more than `latencySlackUs` too (a 40% change
//    of a 1.5 us time is scheduler noise, not a fabric). The figures are the ones the sweep printed: the
//    out-of-place mean time and busbw (nccl-tests' columns; never a median the table did not show), and with
//    -N the fastest pass: robust to a few milliseconds of interference that slowed one pass (a real
//    regression slows every pass).
//  - Pairs per host pair: bandwidth (the slower direction) and latency, as the sweep.
//  - Scaling per world size: throughput; a drop is a regression only when the repetitions' ranges no longer
//    overlap, since the document holds that spread.
//  - Every other result (probes, check, env, doctor): a status that got worse.
// A change counts only beyond `thresholdPct` and beyond the noise the two runs themselves show: k x the robust
// spread (1.4826 x MAD) of the changes over all sizes (or pairs) of that series. Two runs of one healthy
// sweep differ size by size (by 10-40% on a shared 2-core VM, ~1% on a quiet cluster); a real regression moves
// some sizes further than the rest. The limit actually applied is in every row and the result's params.
// Runs of a different backend, or with no collective, data type or op in common, are refused; a different
// world size or node count is the first warning, and then no sweep change is called a regression
// (compare.cpp, setupCheck). "Worst" is the largest flagged regression, never a bigger change within noise.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pf/comparison_row.hpp"
#include "pf/result.hpp"

namespace pf::reports::compare {

struct CompareOptions {
  double thresholdPct = 5;    ///< smallest change the wrong way that is a regression
  double latencySlackUs = 2;  ///< a latency-bound time must also grow by this many microseconds
  double noiseK = 3;          ///< limits widen to noiseK x the series' robust spread of changes
};

struct Labelled {
  std::string label;  ///< a file name, shown in tables and legends
  RunReport report;
};

/// The comparison document (context.command "compare"), verdict not yet applied.
/// @throws UsageError naming both labels when a NEW run cannot be compared with BASE (see setupCheck)
RunReport compareDocuments(const Labelled& base, const std::vector<Labelled>& news, const CompareOptions& options);

/// What comparing one result of BASE with its counterpart in NEW gave.
struct Outcome {
  std::vector<ComparisonRow> rows;
  double limitPct = 0;  ///< the widest limit applied (the threshold, widened by the runs' noise)
  std::string basis;    ///< what the figures are: "out-of-place mean time and busbw, as printed", ...
};

Outcome compareSweep(const Result& base, const Result& next, const CompareOptions& options);
Outcome comparePairs(const Result& base, const Result& next, const CompareOptions& options);
Outcome compareScale(const Result& base, const Result& next, const CompareOptions& options);

/// max(thresholdPct, k x 1.4826 x MAD of `changesPct`); the threshold alone below 6 values (too few to tell).
double noiseLimitPct(const std::vector<double>& changesPct, const CompareOptions& options);

/// (value - base) / base x 100; 0 when base is 0.
double changePct(double base, double value);

}  // namespace pf::reports::compare

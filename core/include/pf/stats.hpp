// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Statistics computed once, here, for every command: order statistics, robust spread (median and MAD) and
// the rank-skew figure used by sweeps. Percentiles use the nearest-rank definition (as nccl-tests' -I p99).
#pragma once

#include <span>
#include <vector>

namespace pf::stats {

/// Distribution of a sample; every field is 0 for an empty sample.
struct Summary {
  size_t n = 0;
  double min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
  double mean = 0, stddev = 0;
};

/// Nearest-rank percentile of `sorted` (ascending) for p in [0, 100].
double percentileSorted(std::span<const double> sorted, double p);
/// Summary of an unsorted sample (copied and sorted internally).
Summary summarize(std::span<const double> sample);
/// Median of an unsorted sample (mean of the two middle values for even n).
double median(std::span<const double> sample);
/// Median absolute deviation (unscaled).
double mad(std::span<const double> sample);
/// Robust z-score: (x - median) / (1.4826 * MAD); 0 when MAD is 0 and x equals the median.
double robustZ(double x, double med, double madValue);

}  // namespace pf::stats

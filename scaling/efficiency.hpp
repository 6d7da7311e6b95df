// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Scaling efficiency E(N) = throughput(N) / (N x throughput(1)) (weak scaling: fixed per-rank batch; with a
// fixed global batch, --strong, the same ratio is the strong-scaling efficiency). Each repetition at N is
// divided by the median 1-rank throughput, so the spread shows the run-to-run variation at N; the 1-rank
// spread is reported beside it.
#pragma once

#include <vector>

#include "pf/result.hpp"

namespace pf::scaling {

struct Spread {
  double median = 0, min = 0, max = 0, stddev = 0;
  int n = 0;
};

/// Median/min/max/sample standard deviation of `v` (empty -> all zero).
Spread spreadOf(std::vector<double> v);

/// The nearest-rank percentile of `v` (q in [0,1]; empty -> 0): the step-time p50/p90 of a row.
double nearestRankPercentile(std::vector<double> v, double q);
/// {"median","min","max","stddev","n"}, the shape every spread takes in the result rows.
Json toJson(const Spread& s);

/// Efficiency per repetition at `ranks`, summarised. `thrN`, `thr1` are samples/s per repetition.
/// @throws std::invalid_argument when thr1 is empty or its median is not positive, or ranks < 1.
Spread efficiency(const std::vector<double>& thrN, const std::vector<double>& thr1, int ranks);

}  // namespace pf::scaling

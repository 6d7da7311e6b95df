// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Size-aware verdict on the quick all-reduce. Wrong elements always fail. Performance is judged per size by
// what bounds it: a size of at least `bandwidth_bound_factor` x the bandwidth-delay product of a pair
// (expected GB/s x expected latency) is bandwidth-bound and is compared by busbw with the pair expectation (a
// ring all-reduce cannot beat its slowest link); a smaller one is latency-bound and is compared by time with
// 2(n-1) pair latencies (a ring's steps). Both are warnings: the pair matrix, not the all-reduce, names nodes.
#pragma once

#include <vector>

#include "expectation.hpp"
#include "finding.hpp"
#include "thresholds.hpp"

namespace pf::check {

/// Findings for the all-reduce result `sweep` (kind "sweep") run on `nodes` nodes.
std::vector<Finding> judgeAllReduce(const Result& sweep, const Expectation& pairs, int nodes,
                                    const AllReduceLimits& limits);

/// The smallest bandwidth-bound size in bytes, or 0 when the expectation is unknown.
double bandwidthBoundBytes(const Expectation& pairs, const AllReduceLimits& limits);

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Size-aware verdict on the quick all-reduce. Wrong elements always fail. Performance is judged per size by
// what bounds it: a size of at least `bandwidth_bound_factor` x the bandwidth-delay product of a pair
// (expected GB/s x expected latency) is bandwidth-bound and is compared by busbw with the pair expectation (a
// ring all-reduce cannot beat its slowest link); a smaller one is latency-bound and is compared by time with
// 2(n-1) pair latencies (a ring's steps). Both are warnings: the pair matrix, not the all-reduce, names nodes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "expectation.hpp"
#include "finding.hpp"
#include "pf/bootstrap.hpp"
#include "thresholds.hpp"

namespace pf::check {

/// Findings for the all-reduce result `sweep` (kind "sweep") run on `nodes` nodes.
std::vector<Finding> judgeAllReduce(const Result& sweep, const Expectation& pairs, int nodes,
                                    const AllReduceLimits& limits);

/// The check's all-reduce sizes: geometric from 8 B to a largest size that is bandwidth-bound on the expected
/// fabric: `bandwidth_bound_factor` x its bandwidth-delay product, the link rate (from the probes) times an RDMA
/// pair's latency (kRdmaLatencyUs: InfiniBand and RoCE pairs measure 2-5 us), rounded up to the size grid and capped
/// at kMaxAllReduceBytes. Without a link rate (TCP, veth) the largest size stays 512 KiB. Full: x16 steps (8 B,
/// 128 B, ... 512 KiB, 8 MiB); quick: 3 sizes (8 B, the geometric middle, the largest).
struct AllReduceSizes {
  uint64_t minBytes = 8, maxBytes = 512ull << 10, stepFactor = 16;
  std::string why;  ///< where the largest size came from, for the result's params
};
constexpr double kRdmaLatencyUs = 5;
constexpr uint64_t kMaxAllReduceBytes = 8ull << 20;
/// @param linkGbps the expected pair bandwidth from link rates in GB/s (expectFromLinks), absent when unknown
AllReduceSizes allReduceSizes(const std::optional<double>& linkGbps, const AllReduceLimits& limits, bool quick);

/// allReduceSizes from rank 0's link rates (the probe phase gathers them there), the same on every rank (a
/// collective call). @param links every node's link rates (empty on other ranks, or when unknown)
AllReduceSizes agreeAllReduceSizes(Bootstrap& boot, const std::vector<NodeLinks>& links, const AllReduceLimits& limits,
                                   bool quick);

/// The smallest bandwidth-bound size in bytes, or 0 when the expectation is unknown.
double bandwidthBoundBytes(const Expectation& pairs, const AllReduceLimits& limits);

}  // namespace pf::check

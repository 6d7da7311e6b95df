// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Cross-node consistency on rank 0: the facts every node of a job should share (NCCL, CUDA and driver
// versions, GPU count and model, NIC count, rate and MTU, every NCCL_* setting) are compared across ranks; the
// value most ranks hold is the majority, and each rank that differs is named with its value and the majority's.
// One NCCL on 63 nodes and another on the 64th is the classic "works on 63" hang: it has to be named.
#pragma once

#include <string>
#include <vector>

#include "gather.hpp"
#include "pf/result.hpp"

namespace pf::probes {

/// One fact about one rank, as compared across ranks.
struct Fact {
  std::string name;   ///< "nccl.version", "gpu.count", "env.NCCL_SOCKET_IFNAME", ...
  std::string value;  ///< as printed; "(unset)" for an absent variable
};

/// The comparable facts of one rank's results (what the probes reported, never re-read from the node).
std::vector<Fact> extractFacts(const std::vector<Result>& results);

/// True for an ib probe row whose port is ACTIVE (accepts "ACTIVE" and sysfs's raw "4: ACTIVE").
bool portIsActive(const Json& row);

/// The ib probe's active ports' rates in Gbit/s (rows {"state", "rate_gbit"}); ports without a rate are left out.
std::vector<double> activePortRatesGbit(const Result& ib);

/// Compares facts across ranks; one Result (key "consistency.<fact>", kind "probe") per rank that differs
/// from the majority, with status fail for versions and GPUs (a job cannot run consistently) and warn for
/// the rest. Empty when everyone agrees or there is a single rank.
std::vector<Result> checkConsistency(const std::vector<RankResults>& ranks);

}  // namespace pf::probes

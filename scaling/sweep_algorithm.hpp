// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Which all-reduce algorithm an inter-node sweep reflects. The plan extrapolates the network level to more
// nodes through the ring's formula; a 2-node figure from Tree, NVLS or CollNet does not extrapolate that way
// (public nccl-tests series: NVLS 717 GB/s at 2 nodes, 335 at 4; Tree 339 -> 192), so such a sweep must not
// be read as a ring. Two sources, the first that speaks wins:
//   the document's own NCCL settings (context.extra.nccl_settings, which `preflight sweep` records):
//     NCCL_ALGO naming only Ring is a ring; naming Tree, NVLS/NVLSTree or CollNet* alone is that algorithm;
//   the sweep's shape: a ring's bus bandwidth across nodes cannot exceed what each node's NICs carry (every
//     byte of the ring's 2(n-1)/n S per rank crosses a node boundary once per node), so large-message busbw
//     above the NICs' line rate means another algorithm, or a sweep that did not cross the NICs.
// Otherwise the algorithm is unknown (NCCL's tuner chose it) and the plan says so in its caveats.
#pragma once

#include <optional>
#include <string>

#include "pf/result.hpp"

namespace pf::scaling {

struct SweepAlgorithm {
  /// "ring", "tree", "nvls", "collnet", "not_ring" (the shape rules a ring out), "mpi" (an MPI sweep: no NCCL
  /// tuner), "unknown"
  std::string algorithm;
  std::string evidence;  ///< where that came from, in words
  bool notRing() const {
    return algorithm == "tree" || algorithm == "nvls" || algorithm == "collnet" || algorithm == "not_ring";
  }
};

/// @param nicGbitPerNode the NICs' summed line rate of a node (Gbit/s), when known: the shape test's ceiling.
SweepAlgorithm detectSweepAlgorithm(const RunReport& sweep, std::optional<double> nicGbitPerNode);

/// The algorithm NCCL_ALGO pins for all-reduce, or "" when it leaves a choice ("Ring,Tree", "^NVLS").
std::string algorithmFromNcclAlgo(const std::string& value);

}  // namespace pf::scaling

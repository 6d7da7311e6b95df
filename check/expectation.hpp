// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What a pair test should reach. Two sources, in order of preference:
//   1. the topology: the link rates the probes discovered (IB/RoCE/Ethernet port rate x ports the engine uses,
//      EFA), the pair's peak being the slower node's: peak_GB/s = min(rate_a, rate_b) x ports / 8;
//   2. the healthy majority: where no rate is known (virtual NICs, veth, a build without probes), the typical
//      pair of this very run, robustly: each node's upper-median pair, the median over nodes (one slow node
//      cannot move it while most nodes are healthy), then the median of the pairs within the fail limit of that.
// The source is always reported, so "92% of expected" never hides where "expected" came from.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pair_row.hpp"

namespace pf::check {

struct Expectation {
  std::optional<double> bwGbps;  ///< expected pair bandwidth; nullopt = cannot be derived
  std::optional<double> latUs;   ///< expected small-message latency
  std::string source;            ///< "topology: ..." or "healthy majority: ..." or why there is none
  bool fromTopology = false;
  bool relative = true;  ///< false when there is no majority to compare with (fewer than 3 nodes)
  /// The healthy pairs' own spread: 1.4826 x MAD of ln(bandwidth) over the pairs the expectation came from,
  /// when there were at least kMinPairsForSpread of them. Bandwidth noise is multiplicative (pairs sharing a
  /// host's CPUs run at 0.35-1.5 GB/s on one simulated cluster), so it is measured on a log scale.
  std::optional<double> bwLogSpread;
  static constexpr size_t kMinPairsForSpread = 6;
};

/// A node's network as the probes saw it: the active ports' rates in Gbit/s (0 or absent = unknown).
struct NodeLinks {
  std::string host;
  std::vector<double> portRatesGbit;
};

/// Expected pair bandwidth from link rates; nullopt when any node's rate is unknown.
/// @param portsUsed ports one pair test drives per node (1 for the MPI engine, every rail for NCCL)
std::optional<double> expectFromLinks(const std::vector<NodeLinks>& nodes, int portsUsed);

/// The healthy-majority expectation from measured rows. @param failFraction the pair fail limit
Expectation expectFromMajority(const std::vector<PairRow>& rows, int nodeCount, double failFraction,
                               double latFailFactor);

}  // namespace pf::check

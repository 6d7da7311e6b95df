// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The two-level communication model behind `preflight scale --predict NxR`. A training cluster has fast links
// inside a node (shared memory, NVLink) and a slower network between nodes; one fitted alpha-beta line cannot
// say what happens when an allocation first spans nodes. So each level has its own fit (perf_model.hpp's
// CommModel), from a sweep taken at that level: within one node, and across two nodes.
//
// An all-reduce of S bytes over N nodes x R ranks (n = N R, ranks of a node adjacent in the ring, as mpirun's
// and srun's block placement and NCCL's rings order them):
//   ring: 2(n-1) steps, each moving S/n bytes over every hop at once, so a step lasts as long as its slowest hop
//         T = 2(n-1) max(alpha_intra + S/n beta_intra, alpha_inter + S/n beta_inter)
//         Each node sends one ring edge to the next node whatever N is, so the inter-node hop's cost per step
//         does not grow with N; only the step count does.
//   tree: 2 log2(n) alpha_inter + 2 S beta_inter (reduce then broadcast, pipelined, bounded by the network)
//   NVLS, NVLS_TREE and CollNet where the probes say they exist (in_switch.hpp; fabric_model.cpp has the terms)
// and the fastest, as NCCL's tuner picks. Within one node (N = 1) only the intra-node level counts.
// The inter-node fit comes from a sweep over 2 nodes, read through the same ring formula at its n: its alpha
// and beta are those of the slowest hop, the network, which is what the ring's steps wait for.
// Sources: Thakur, Rabenseifner & Gropp 2005 (alpha-beta costs of ring and tree all-reduce); NCCL's
// PERFORMANCE.md (the ring's 2(n-1)/n bus factor).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "in_switch.hpp"
#include "nic_rates.hpp"
#include "perf_model.hpp"

namespace pf::scaling {

/// Nodes x ranks per node.
struct Allocation {
  int nodes = 1, ranksPerNode = 1;
  int ranks() const { return nodes * ranksPerNode; }
  std::string label() const;  ///< "4x2"
};

/// "8x16" (nodes x ranks per node) or a plain rank count "64", laid out `ranksPerNode` to a node.
/// @throws UsageError naming the text and the accepted forms.
Allocation parseAllocation(const std::string& text, int ranksPerNode);

/// One level's fit and where it came from.
struct LevelFit {
  CommModel fit;
  int ranks = 0, nodes = 0;  ///< of the sweep it was fitted to
  std::string source;        ///< the sweep document's path
};

/// One bucket's all-reduce at an allocation: its time, which level bounds it, and the fit's error there.
struct AllReduceCost {
  double us = 0;
  double latencyUs = 0, bandwidthUs = 0;  ///< the chosen algorithm's two terms, at the bounding level
  std::string level;                      ///< "intra-node" or "inter-node"
  std::string algorithm;                  ///< "ring", "tree", or in-switch: "nvls", "nvls_tree", "collnet"
  double relError = 0;                    ///< the bounding level's fit error (largest relative residual)
  bool inSwitch = false;                  ///< NVLS or CollNet: modelled, never measured by a sweep here
};

struct FabricModel {
  std::optional<LevelFit> intra, inter;
  /// What-if: the inter-node bandwidth as a multiple of the fitted one (0.25 = links 4x slower).
  double interBandwidthFactor = 1.0;
  /// The NICs the probes found (nic_rates.hpp), when given: the inter-node level's ceiling.
  std::optional<NicSet> nics;
  /// The inter-node level is the NICs' line rate with the intra-node latency, not a sweep: across nodes every
  /// prediction is then a lower bound on time.
  bool interFromLineRate = false;
  /// NVLS and CollNet, where a probe document says every node has them (in_switch.hpp). Each joins ring and
  /// tree as a candidate, costed from the bytes each GPU and each NIC moves at the fitted levels' bandwidths.
  std::optional<InSwitchReductions> inSwitch;
  /// Cost the ring only (NCCL_ALGO=Ring): no tree and no in-switch candidate. For checking the model against
  /// measurements taken with the ring (tests/fixtures/scaling-series), where the tuner's pick is not the question.
  bool ringOnly = false;

  /// The cost at `a`. With only one level fitted, it serves every allocation (say so: `singleLevel()`).
  AllReduceCost allReduce(double bytes, const Allocation& a) const;
  bool singleLevel() const { return !intra || !inter; }
};

/// Which level a sweep document describes: intra-node when it ran on one node.
/// @throws UsageError when two documents describe the same level, naming both.
FabricModel fabricModelFromLevels(std::vector<LevelFit> levels);

/// Adds the probes' NICs. Without an inter-node sweep they become the inter-node level: beta at their summed
/// line rate, alpha the intra-node one (`interFromLineRate`; both optimistic, so times across nodes are lower
/// bounds). With one, they stay beside it as the ceiling `lineRateFraction` compares the fit with.
void addNics(FabricModel& m, NicSet nics);

/// The inter-node fit's large-message bandwidth as a fraction of the NICs' line rate; 0 without both.
double lineRateFraction(const FabricModel& m);

}  // namespace pf::scaling

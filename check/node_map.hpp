// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Ranks grouped by node. A node is a distinct hostname; nodes are numbered in the order of their lowest rank,
// and each node's lowest rank is its leader (the rank that runs the node's side of a pair test).
#pragma once

#include <string>
#include <vector>

namespace pf::check {

struct NodeMap {
  std::vector<std::string> hosts;  ///< node index -> hostname
  std::vector<int> leader;         ///< node index -> lowest rank on it
  std::vector<int> nodeOfRank;     ///< rank -> node index
  int nodeCount() const { return static_cast<int>(hosts.size()); }
};

/// Groups ranks by hostname. @param hostOfRank every rank's hostname, in rank order (from allGather).
NodeMap groupByHost(const std::vector<std::string>& hostOfRank);

}  // namespace pf::check

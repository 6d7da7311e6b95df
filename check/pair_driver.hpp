// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The node-pair test driver: groups ranks by node, schedules the tournament rounds, and in each round lets the
// leader ranks of the paired nodes run the pair protocol (pair_protocol.hpp) over the engine while every other
// rank waits at a barrier (rounds never overlap, so a pair's numbers are not shared with another pair's
// traffic). Rows are gathered to every rank. The analysis (expected bandwidth, outliers, slow node or link) is
// separate: see pair_analysis.hpp.
#pragma once

#include <functional>
#include <vector>

#include "node_map.hpp"
#include "pair_engine.hpp"
#include "pair_row.hpp"
#include "tournament.hpp"

namespace pf::check {

struct PairRun {
  NodeMap nodes;
  std::vector<PairRow> rows;         ///< sorted by round, then node_a
  std::vector<double> roundSeconds;  ///< wall time of each round
  double seconds = 0;
};

/// Runs every round on every rank (a collective call). @param hostOfRank every rank's hostname (allGather)
/// @param onRound called on rank 0 after each round with (round, rounds) for progress output; may be empty
PairRun runPairs(PairEngine& engine, Bootstrap& boot, const std::vector<std::string>& hostOfRank,
                 const PairOptions& opts, const std::function<void(int, int)>& onRound = {});

/// Runs the given rounds of node pairs (a collective call); the tournament, or a few pairs measured again.
PairRun runRounds(PairEngine& engine, Bootstrap& boot, const NodeMap& nodes, const std::vector<Round>& rounds,
                  const PairOptions& opts, const std::function<void(int, int)>& onRound = {});

}  // namespace pf::check

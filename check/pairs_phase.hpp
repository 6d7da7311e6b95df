// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pair matrix as one phase shared by `preflight pairs` and `preflight check`: run the rounds, analyse them,
// and package the outcome as one result of kind "pairs" (rows = the matrix) plus the findings.
#pragma once

#include <string>
#include <vector>

#include "cpu_load.hpp"
#include "pair_analysis.hpp"
#include "pair_driver.hpp"
#include "thresholds.hpp"

namespace pf::check {

struct PairsPhase {
  Result result;  ///< kind "pairs"; skipped with the reason when there are fewer than 2 nodes
  PairAnalysis analysis;
  std::vector<PairRow> rows;  ///< analysed rows (also in result.rows)
  std::vector<CpuLoad> cpu;   ///< each node's CPU load over the phase, by node index (empty: not sampled)
};

/// Runs and analyses the matrix on every rank (a collective call).
/// @param links link rates from the probes (empty: the healthy-majority expectation)
/// @param portsUsed ports the engine drives per node, for the topology expectation
PairsPhase runPairsPhase(PairEngine& engine, Bootstrap& boot, const std::vector<std::string>& hostOfRank,
                         const PairOptions& opts, const Thresholds& limits, const std::vector<NodeLinks>& links,
                         int portsUsed, const std::function<void(int, int)>& onRound = {});

/// Analyses already-measured rows into the phase's result (used by runPairsPhase and by tests).
/// @param cpu each node's CPU load while the pairs ran (contention.hpp); empty when not sampled
/// @param majority the expectation to judge against (analyzePairs); absent: the healthy majority of `run`'s rows
PairsPhase analyzePairRun(PairRun run, const PairOptions& opts, const std::string& engine, const Thresholds& limits,
                          const std::vector<NodeLinks>& links, int portsUsed, const std::vector<CpuLoad>& cpu = {},
                          const std::optional<Expectation>& majority = std::nullopt);

}  // namespace pf::check

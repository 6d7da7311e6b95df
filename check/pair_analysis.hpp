// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Judges the pair matrix and names the culprit.
//
// 1. Every pair is compared with the expectation (expectation.hpp): bandwidth (the slower direction) against
//    the fail/warn fractions, small-message latency against the fail/warn factors (with a slack in us, so a
//    10 us link is not failed for 60 us of scheduler noise), and the absolute limits when set.
// 2. Robust statistics describe the spread: the median and MAD of pair bandwidth give each pair a robust z;
//    each node's median pair bandwidth, compared across nodes the same way, gives each node one.
// 3. Attribution: a node that is a member of more than half of its pairs' failures (and at least two) is the
//    slow node, since a bad NIC, cable or port slows every pair it takes part in; its pairs are then
//    explained. Failures left over are slow links (two named nodes). With two nodes, a slow pair cannot be
//    pinned on either end, and the finding says so.
#pragma once

#include <vector>

#include "expectation.hpp"
#include "finding.hpp"
#include "node_map.hpp"
#include "pair_row.hpp"
#include "thresholds.hpp"

namespace pf::check {

struct PairAnalysis {
  Expectation expected;
  double medianBwGbps = 0, madBwGbps = 0, medianLatUs = 0, madLatUs = 0;
  std::vector<double> nodeMedianBwGbps;  ///< per node index
  std::vector<double> nodeRobustZ;       ///< per node index
  std::vector<Finding> findings;         ///< empty when every pair is within limits
  Status status = Status::kPass;
};

/// Fills each row's expected_gbps, pct_of_expected, expected_lat_us, bw_robust_z, status and reason, and
/// returns the findings. @param topology the expectation from link rates, when the probes found one (a node
/// profile's limits.declaredBwGbps takes its place)
/// @param majority the healthy-majority expectation to judge against; when absent it is taken from `rows`
/// (runPairsPhase passes its first pass's, so pairs measured again cannot move it)
PairAnalysis analyzePairs(std::vector<PairRow>& rows, const NodeMap& nodes, const PairLimits& limits,
                          const std::optional<double>& topologyGbps = std::nullopt,
                          const std::string& topologySource = "",
                          const std::optional<Expectation>& majority = std::nullopt);

/// analyzePairs for rows of several rails (check --rails): every pair judged against one expectation pooled over
/// all rails (`majority`, or taken from all rows), the culprits attributed rail by rail, so a rail slow on one node
/// names that node and its NIC on the rail; rows without rails are analyzePairs' alone.
PairAnalysis analyzePairsByRail(std::vector<PairRow>& rows, const NodeMap& nodes, const PairLimits& limits,
                                const std::optional<double>& topologyGbps = std::nullopt,
                                const std::string& topologySource = "",
                                const std::optional<Expectation>& majority = std::nullopt);

}  // namespace pf::check

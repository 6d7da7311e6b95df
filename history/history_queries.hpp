// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What `preflight history` asks of the runs: nodes that failed k of their last n checks, the first run in which
// a figure dropped below its earlier median, and a node's figures over time. Pure functions of the records, so
// they are tested on constructed runs without a file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "history_record.hpp"

namespace pf::history {

struct FlappingNode {
  std::string host;
  int failed = 0;       ///< failed checks among the last `checks`
  int checks = 0;       ///< the node's last checks looked at (n, or fewer when it has fewer)
  std::string pattern;  ///< their verdicts, oldest first: P pass, W warn, F fail, T timeout, E error
  std::vector<int64_t> failedRuns;
};

/// Nodes whose last `n` checks include at least `k` failed ones (failedCheck), in the order the history first
/// names them. @pre 1 <= k <= n
std::vector<FlappingNode> flappingNodes(const std::vector<RunRecord>& runs, int k, int n);

struct Regression {
  std::string host, peer;  ///< peer: the pair's other node; empty for a node's own figure
  std::string figure;      ///< "pair median bandwidth", "all-reduce busbw", "pair bandwidth"
  double valueGbps = 0;    ///< the figure in the run it was first seen in
  double earlierMedianGbps = 0;
  double dropPercent = 0;  ///< 100 x (1 - value / earlier median)
  int64_t run = 0;
  std::string started;
  int earlierRuns = 0;      ///< figures the median was taken over
  double latestGbps = 0;    ///< the figure's latest value
  bool stillBelow = false;  ///< the latest value is still below the limit
};

/// For each node's pair median and one-node all-reduce busbw, and each pair's bandwidth (its slower direction):
/// the first run in which the figure fell more than `percent` below the median of its earlier values (at least
/// `minEarlier` of them). One regression per figure, nodes first, then pairs, each in the order first named.
std::vector<Regression> regressions(const std::vector<RunRecord>& runs, double percent, int minEarlier = 3);

struct NodePoint {
  int64_t run = 0;
  std::string started, host;
  Status verdict = Status::kPass;
  std::optional<double> pairMedianGbps, allReduceBusbwGbps;
};

/// Every node's figures run by run (`host` empty), or one node's, oldest first.
std::vector<NodePoint> nodeSeries(const std::vector<RunRecord>& runs, const std::string& host = {});

}  // namespace pf::history

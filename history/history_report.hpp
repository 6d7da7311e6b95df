// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight history` as a result document (context.command "history"), so every output format and the viewer
// read it through the one result model. Its results are of kind "check" (flapping nodes and regressions are
// findings naming hosts, in params.hosts), told apart by their keys:
//   history.runs         the runs (the last `lastRuns`), rows: run, started, ended, hosts, verdict, exit_code...
//   history.flapping     nodes that failed k of their last n checks (warn when there is one)
//   history.regressions  first-seen drops of a node's or a pair's figure (warn when there is one)
//   history.bandwidth    each node's figures run by run (one node with `node`): the chart's data
// The fields are listed in docs/history.md.
#pragma once

#include <string>
#include <vector>

#include "history_record.hpp"

namespace pf::history {

struct HistoryOptions {
  int failedK = 2, failedN = 5;  ///< --flapping K/N
  double dropPercent = 20;       ///< --drop
  int minEarlier = 3;            ///< earlier figures a regression's median needs
  int lastRuns = 20;             ///< --last: runs listed (0 = all)
  std::string node;              ///< --node: one node's figures and findings
};

/// @throws UsageError when options.node is not in the history.
RunReport historyReport(const std::vector<RunRecord>& runs, const HistoryOptions& options);

}  // namespace pf::history

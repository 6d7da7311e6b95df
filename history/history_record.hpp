// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One `preflight check` run as the history keeps it: the run, each node's verdict and key figures, the findings
// and the pair rows. Every field is read from the run's result document (recordFromReport), never measured
// again, so the history holds exactly what the check reported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pf/result.hpp"

namespace pf::history {

struct NodeRecord {
  std::string host;
  Status verdict = Status::kPass;  ///< the worst finding naming this node that counts (pass when none)
  int findings = 0;                ///< findings naming this node (any status)
  /// Median bandwidth of the node's pairs (each pair's slower direction), GB/s; empty when no pair ran.
  std::optional<double> pairMedianGbps;
  /// busbw of the check's all-reduce at its largest size, GB/s: only on a one-node run, where the all-reduce
  /// is this node's alone (on several nodes it is the whole allocation's, kept on the run).
  std::optional<double> allReduceBusbwGbps;
};

struct FindingRecord {
  std::string host;  ///< "" for a finding about the whole run; "a,b" for a link
  std::string check;
  Status status = Status::kFail;
  std::string message, remedy;
};

struct PairRecord {
  std::string hostA, hostB;
  double outGbps = 0, inGbps = 0;  ///< a to b, b to a
  double latUs = 0;
  double bwGbps() const { return outGbps < inGbps ? outGbps : inGbps; }
};

struct RunRecord {
  int64_t id = 0;              ///< set by the store
  std::string started, ended;  ///< ISO 8601 UTC, from the document's context
  std::string commandLine;
  int hostCount = 0;
  Status verdict = Status::kPass;
  int exitCode = 0;
  std::string version;                       ///< preflight's version
  std::optional<double> allReduceBusbwGbps;  ///< the run's all-reduce busbw at its largest size
  std::vector<NodeRecord> nodes;
  std::vector<FindingRecord> findings;
  std::vector<PairRecord> pairs;
};

/// The record of a check document: the verdict, findings (results of kind check), pairs (the pairs result's rows)
/// and each node's figures derived from them.
/// @throws UsageError when the document is not one of `preflight check`.
RunRecord recordFromReport(const RunReport& report);

/// Whether a node verdict counts as a failed check: fail, timeout or error (a warning passes the gate).
bool failedCheck(Status s);

}  // namespace pf::history

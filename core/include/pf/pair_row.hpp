// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One row of the node-pair matrix (result kind "pairs"), in the result model so that reports and the viewer read it
// typed: what a pair test measured between two nodes, and what the analysis made of it. Field names and units are those
// of docs/result-schema.md ("Pair results").
#pragma once

#include <optional>
#include <string>

#include "pf/result.hpp"

namespace pf {

struct PairRow {
  int round = 0;               ///< tournament round the pair ran in
  int node_a = 0, node_b = 0;  ///< node indices, a < b
  std::string host_a, host_b;
  int rank_a = 0, rank_b = 0;  ///< the leader ranks that ran the test
  std::string engine;          ///< "mpi" or "nccl"
  uint64_t size_bytes = 0;     ///< bandwidth message size
  double bw_a_to_b_gbps = 0, bw_b_to_a_gbps = 0;
  double lat_us = 0;  ///< median one-way latency of small messages (half a round trip)
  uint64_t lat_size_bytes = 8;
  double seconds = 0;    ///< wall time of this pair's test (all its measurements)
  int measurements = 1;  ///< more than 1 when a pair outside limits was measured again to confirm (the best counts)
  // Every rail (`check --rails`): the rail index and each node's NIC on it; rail -1 (absent in JSON) when the
  // engine drove its one default path.
  int rail = -1;
  std::string nic_a, nic_b;  ///< "rail2", "mlx5_2 port 1 (ib2)"
  // Filled by the analysis; null in JSON until then.
  std::optional<double> expected_gbps, pct_of_expected, expected_lat_us, bw_robust_z;
  Status status = Status::kPass;
  std::string reason;  ///< why it is not "pass" (empty when it is)

  /// The pair's bandwidth: the slower direction, since a collective is as slow as its slowest link.
  double bwGbps() const { return bw_a_to_b_gbps < bw_b_to_a_gbps ? bw_a_to_b_gbps : bw_b_to_a_gbps; }
};

Json toJson(const PairRow& r);
/// @throws UsageError naming the missing or mistyped field.
PairRow pairRowFromJson(const Json& j);

/// How the pair matrix's rounds read, the same in the result's message and the check summary: "3 rounds",
/// "3 rounds, then 1 confirmation round". `rounds` is the tournament's (metrics.rounds), `confirmation` the
/// rounds run again for suspects (metrics.confirmation_rounds).
std::string pairRoundsText(long long rounds, long long confirmation);

}  // namespace pf

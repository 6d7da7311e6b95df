// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Gathering probe results from every rank to rank 0, and the groups of ranks that agree, which the probe
// command stores in its document for the summary (reports/text/probe_text.cpp). A group holds ranks that
// agree (per probe the same status and, for a problem, the same message; the same versions, counts and NCCL
// settings), so a 64-node run with one odd node prints one group and one difference, not 64 copies; per-node
// values such as addresses do not split groups.
#pragma once

#include <string>
#include <vector>

#include "pf/bootstrap.hpp"
#include "pf/result.hpp"

namespace pf::probes {

/// One rank's probe results.
struct RankResults {
  int rank = 0;
  std::string host;
  std::vector<Result> results;
};

/// Collective: every rank contributes its results; rank 0 receives all of them in rank order, the other
/// ranks an empty vector. Each gathered Result gets its rank (and host, when empty) filled in.
std::vector<RankResults> gatherResults(Bootstrap& boot, const std::string& host, const std::vector<Result>& local);

/// The results of every rank as one list (rank order, probes in name order within a rank).
std::vector<Result> flatten(const std::vector<RankResults>& ranks);

/// How ranks are named in messages: "node1" when that host runs one rank, "node1 (rank 3)" otherwise.
std::string memberLabel(const std::vector<RankResults>& ranks, size_t index);

/// Groups of rank indices that agree (see above), largest group first.
std::vector<std::vector<size_t>> groupIdentical(const std::vector<RankResults>& ranks);

}  // namespace pf::probes

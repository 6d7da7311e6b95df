// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What a document's collective figures depend on besides the fabric's health: the world size, the node
// count, the backend, and the collectives, data types and reduction ops its sweeps ran. Two runs that differ
// in one of these measure different things, so `preflight compare` and `preflight check --baseline` look at
// it before they call a change a regression (each decides what it refuses and what it warns about).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "pf/result.hpp"

namespace pf {

struct RunSetup {
  bool hasSweeps = false;  ///< the rest describes the sweeps; a document without any has nothing to differ in
  int worldSize = 0;       ///< 0: not known
  int nodeCount = 0;       ///< 0: not known
  std::string backend;     ///< "nccl", "mpi", ...; empty: not known
  std::set<std::string> collectives, dtypes, ops;
};

/// The setup of `doc`'s sweep results (kind sweep; a check document's all-reduce is one).
RunSetup runSetupOf(const RunReport& doc);

struct SetupDifference {
  std::string what;              ///< "world size", "node count", "backend", "collective", "data type", "reduction op"
  std::string base, next;        ///< each side's value(s), as a user reads them ("2 ranks", "float, half")
  bool nothingInCommon = false;  ///< a set with no common member (or a single value that differs)
};

/// Every field both sides know and that differs; empty when either side has no sweeps.
std::vector<SetupDifference> setupDifferences(const RunSetup& base, const RunSetup& next);

/// "world size 2 ranks vs 4 ranks" for a message.
std::string describe(const SetupDifference& d);

}  // namespace pf

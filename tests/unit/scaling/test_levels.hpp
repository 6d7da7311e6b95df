// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A fitted level with the same alpha and beta at every size, for the model's unit tests.
#pragma once

#include "fabric_model.hpp"

namespace pf::scaling::testing {

inline LevelFit level(double alphaUs, double betaUsPerB, int ranks, int nodes, double relError = 0) {
  LevelFit l;
  l.fit.small = l.fit.large = AlphaBeta{alphaUs, betaUsPerB, 0, relError};
  l.ranks = ranks;
  l.nodes = nodes;
  l.source = nodes > 1 ? "inter.json" : "intra.json";
  return l;
}

}  // namespace pf::scaling::testing

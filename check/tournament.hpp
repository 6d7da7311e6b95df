// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Round-robin tournament scheduling of node pairs (the "circle method"): N nodes meet every other node exactly
// once in N-1 rounds of disjoint pairs (N rounds with one bye each when N is odd). Every node is busy in every
// round, so a pair matrix costs (N-1) x (time of one pair test) instead of N(N-1)/2 x that.
#pragma once

#include <utility>
#include <vector>

namespace pf::check {

/// One round: disjoint (a, b) pairs with a < b.
using Round = std::vector<std::pair<int, int>>;

/// The rounds for `n` nodes; empty for n < 2. Each unordered pair appears in exactly one round.
std::vector<Round> tournamentRounds(int n);

/// Rounds of disjoint pairs covering `pairs` (each (a, b) with a < b), greedily in the given order: used to
/// measure a few pairs again without running the whole tournament.
std::vector<Round> disjointRounds(const std::vector<std::pair<int, int>>& pairs);

/// The partner of `node` in `round`, or -1 when it has a bye.
int partnerIn(const Round& round, int node);

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// CPU contention against a network verdict. A node whose pairs are slow while its CPUs were busy with other
// work (cpu_load.hpp) is not shown to have a network problem: the finding becomes `pairs.cpu_contention`,
// names the processes, and tells the operator to clear the node rather than inspect cables. When more than
// half of the nodes were busy, the pair figures measure the contention, not the fabric: a warning says the
// run is unreliable, and the pairs that contention explains are warnings, not failures.
//
// Contention explains a slowdown only so far: a busy CPU stretches a pair by the share it loses, a few times
// at most, while a shaped or broken link drops to a few per cent (a node shaped to 200 Mbit/s runs at 2-3% of
// the simulated cluster's healthy pairs). Below kContentionExplainsPct of the expectation the network verdict
// stands, with the CPU load added to its evidence.
#pragma once

#include <vector>

#include "cpu_load.hpp"
#include "pair_analysis.hpp"

namespace pf::check {

constexpr double kContentionExplainsPct = 12.5;

/// Rewrites `a`'s findings and `rows`' statuses as above; no-op when `cpu` is empty (no samples).
void attributeContention(PairAnalysis& a, std::vector<PairRow>& rows, const std::vector<CpuLoad>& cpu);

}  // namespace pf::check

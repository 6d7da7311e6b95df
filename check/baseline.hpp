// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--baseline FILE`: compares this run with an earlier result document of `preflight check` or `preflight
// pairs`. A pair (matched by its two hostnames, in either order) or an all-reduce size (bandwidth-bound sizes
// only, matched by size) that lost more than `regression_percent` of its bandwidth fails. Pairs or sizes that
// are in only one of the two documents are listed in the evidence, not judged.
#pragma once

#include <vector>

#include "finding.hpp"
#include "pair_row.hpp"

namespace pf::check {

/// @param baseline the earlier document; @param allreduce this run's all-reduce result (nullptr if none)
/// @param boundBytes smallest bandwidth-bound all-reduce size (see allreduce_verdict.hpp)
std::vector<Finding> compareWithBaseline(const RunReport& baseline, const std::vector<PairRow>& pairs,
                                         const Result* allreduce, double boundBytes, double regressionPercent);

}  // namespace pf::check

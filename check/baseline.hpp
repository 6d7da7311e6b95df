// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--baseline FILE`: compares this run with an earlier result document of `preflight check` or `preflight
// pairs`. A pair (matched by its two hostnames, in either order) or an all-reduce size (bandwidth-bound sizes
// only, matched by data type, op and size, on the out-of-place busbw the tables print) that lost more than
// `regression_percent` of its bandwidth fails; the largest drop comes first. Pairs or sizes that are in only
// one of the two documents are not judged. When the baseline ran another world size, node count or backend,
// the all-reduce is not judged (one warning says why: busbw depends on them); pairs still are.
#pragma once

#include <vector>

#include "finding.hpp"
#include "pair_row.hpp"

namespace pf::check {

/// @param baseline the earlier document; @param now this run's context (world size, node count)
/// @param allreduce this run's all-reduce result (nullptr if none)
/// @param boundBytes smallest bandwidth-bound all-reduce size (see allreduce_verdict.hpp)
std::vector<Finding> compareWithBaseline(const RunReport& baseline, const Context& now,
                                         const std::vector<PairRow>& pairs, const Result* allreduce, double boundBytes,
                                         double regressionPercent);

}  // namespace pf::check

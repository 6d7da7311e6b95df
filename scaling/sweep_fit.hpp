// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Prediction from an all-reduce sweep document (`preflight sweep all_reduce --json sweep.json`): fit the
// alpha-beta model (perf_model.hpp) to its out-of-place rows, take the measured compute time of the smallest
// measured world size and the trainer's buckets, and predict step time and efficiency at other sizes.
#pragma once

#include <string>
#include <vector>

#include "perf_model.hpp"
#include "pf/result.hpp"
#include "trainer.hpp"

namespace pf::scaling {

/// Fits the model from the document's all_reduce rows. @throws UsageError naming the file and the fix.
CommModel commModelFromSweep(const RunReport& sweep, const std::string& path);

/// The step model input from a measured row (compute, other time) and the trainer's buckets.
StepModelInput stepInputFromRow(const Json& row, const TrainerSpec& spec);

/// Predicted rows for `ranks` (step_us, exposed_comm_us, throughput_sps, efficiency) from `base`.
Json predictRows(const Json& base, const TrainerSpec& spec, const CommModel& m, const std::vector<int>& ranks);

/// For every measured row beyond the smallest: the prediction made from the smallest, and the relative error
/// of step time; returns {"rows": [...], "max_abs_error": x}.
Json validatePrediction(const Json& rows, const TrainerSpec& spec, const CommModel& m);

/// The fitted model as the document records it: alpha (us) and beta (us per byte) for small and large sizes.
Json modelToJson(const CommModel& m);

/// For the capacity-planning report, at `ranks`: each bucket's all-reduce split into its latency part
/// (2(n-1) alpha) and bandwidth part (2(n-1)/n S beta, the ring's terms) and which bounds it; and the step time
/// the model predicts for a range of bucket caps, with the best. {"ranks", "buckets": [...], "caps": [...],
/// "best_cap_mb"}
Json bucketAdvice(const Json& base, const TrainerSpec& spec, const CommModel& m, int ranks);

}  // namespace pf::scaling

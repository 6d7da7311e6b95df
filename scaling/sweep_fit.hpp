// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Prediction from an all-reduce sweep document (`preflight sweep all_reduce --json sweep.json`): fit the
// alpha-beta model (perf_model.hpp) to its rows, one level per sweep (fabric_model.hpp), take the measured compute time
// of the smallest measured world size and the trainer's buckets, and predict step time and efficiency at other sizes.
#pragma once

#include <string>
#include <vector>

#include "fabric_model.hpp"
#include "perf_model.hpp"
#include "pf/result.hpp"
#include "trainer.hpp"

namespace pf::scaling {

/// One level of the fabric model from a sweep document's all_reduce rows: intra-node when the sweep ran on one
/// node, inter-node otherwise. @throws UsageError naming the file and the fix.
LevelFit levelFromSweep(const RunReport& sweep, const std::string& path);

/// The step model input from a measured row (compute, other time) and the trainer's buckets.
StepModelInput stepInputFromRow(const Json& row, const TrainerSpec& spec);

/// Predicted rows for each allocation from `base` (the smallest measured size): step time, throughput and
/// efficiency with a band (the fits' largest residuals on communication, the base row's spread over repetitions
/// on the rest), and each bucket's cost with the level and algorithm that bound it.
Json predictRows(const Json& base, const TrainerSpec& spec, const FabricModel& m, const std::vector<Allocation>& at);

/// For every measured row beyond the smallest: the prediction made from the smallest at the row's own
/// allocation (its `nodes`), the relative error of step time and whether the measurement fell inside the band;
/// returns {"rows": [...], "max_abs_error": x, "inside_band": k}.
Json validatePrediction(const Json& rows, const TrainerSpec& spec, const FabricModel& m);

/// The fitted model as the document records it: per level, alpha (us) and beta (us per byte) for small and large
/// sizes, the fit's error and the sweep it came from.
Json modelToJson(const FabricModel& m);

/// For the capacity-planning report, at `at`: each bucket's all-reduce split into its latency part and
/// bandwidth part and which bounds it (and at which level); and the step time the model predicts for a range of
/// bucket caps, with the best. {"ranks", "allocation", "buckets": [...], "caps": [...], "best_cap_mb"}
Json bucketAdvice(const Json& base, const TrainerSpec& spec, const FabricModel& m, const Allocation& at);

}  // namespace pf::scaling

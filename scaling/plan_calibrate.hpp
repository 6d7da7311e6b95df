// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight plan --calibrate SCALE.json`: a `preflight scale` document's measured rows calibrate the plan.
//   step_compute_ms: the smallest measured size's step without its exposed communication (compute and the
//     optimizer), which is what E(N) = step_compute / step is measured against;
//   overlap: the largest measured size's hidden share of its communication, 1 - exposed_comm / comm.
// The measured rows are then predicted at their own allocations, side by side with what was measured.
#pragma once

#include <optional>
#include <string>

#include "pf/result.hpp"
#include "plan_model.hpp"

namespace pf::scaling {

struct ScaleCalibration {
  std::string source;
  double parameters = 0, batchPerRank = 0, bucketCapMb = 25;
  double stepComputeMs = 0;
  std::optional<double> overlap;
  int fromRanks = 0, overlapRanks = 0;
  Json rows;  ///< the scale result's rows
};

/// @throws UsageError naming the file when it is not a scale document with measured rows.
ScaleCalibration calibrationFromScale(const RunReport& scale, const std::string& path);

/// The workload the scale run trained (its model's parameters, fp32 gradients, DDP, its batch and bucket cap).
Workload workloadFromScale(const ScaleCalibration& c);

/// Applies the calibration to `w`: its step_compute_ms, and the overlap unless `w` gives one.
/// @throws UsageError when `w` describes another model (parameters differ by more than 1%).
void calibrate(Workload& w, const ScaleCalibration& c);

/// Each measured row beside the plan's prediction at its allocation:
/// [{ranks, nodes, measured_step_ms, predicted_step_ms, measured_efficiency, predicted_efficiency, error}]
Json measuredBesidePredicted(const PlanInput& in, const ScaleCalibration& c);

/// Sentences for each predicted E(N) above a measured E at a smaller N (the model is then optimistic).
std::vector<std::string> optimisticPredictions(const Json& planRows, const Json& measured);

}  // namespace pf::scaling

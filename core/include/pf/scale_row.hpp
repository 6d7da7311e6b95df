// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The typed reading of a result of kind "scale" (preflight scale): one row per measured world size, and the
// predictions for larger sizes. Field names and units are those of docs/result-schema.md ("Scale results").
// Reports, the viewer and the HTML charts read these, never the JSON by hand.
#pragma once

#include <optional>
#include <vector>

#include "pf/result.hpp"

namespace pf {

/// A sample's spread over repetitions: {"median","min","max","stddev","n"} in the document.
struct SpreadStat {
  double median = 0, min = 0, max = 0, stddev = 0;
  int n = 0;
};

struct ScaleRow {
  int ranks = 0;
  SpreadStat throughput_sps;      ///< samples per second, all ranks together
  SpreadStat efficiency;          ///< E(N) = thr(N) / ((N/N0) thr(N0)) per repetition
  int efficiency_base_ranks = 1;  ///< N0, the smallest size measured
  double step_us_p50 = 0, step_us_p90 = 0;
  double compute_us = 0, comm_us = 0, exposed_comm_us = 0, rest_us = 0;
  bool ranks_identical = false, equal_to_single_rank = false;
};

/// A world size the alpha-beta model predicts (metrics.predictions).
struct ScalePrediction {
  int ranks = 0;
  double step_us = 0, exposed_comm_us = 0, comm_us = 0, throughput_sps = 0, efficiency = 0;
};

struct ScaleSummary {
  std::vector<ScaleRow> rows;
  std::vector<ScalePrediction> predictions;
  std::optional<double> prediction_max_abs_error;  ///< model error on the measured sizes, when --from was given
};

/// @throws UsageError naming the field when a row does not fit.
ScaleRow scaleRowFromJson(const Json& j);
ScaleSummary scaleSummaryFromResult(const Result& r);

}  // namespace pf

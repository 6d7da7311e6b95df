// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The typed reading of a result of kind "scale" (preflight scale): one row per measured world size, and the
// predictions for larger sizes. Field names and units are those of docs/result-schema.md ("Scale results").
// Reports, the viewer and the HTML charts read these, never the JSON by hand.
#pragma once

#include <optional>
#include <string>
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

/// An allocation the model predicts (metrics.predictions).
struct ScalePrediction {
  int ranks = 0;
  double step_us = 0, exposed_comm_us = 0, comm_us = 0, throughput_sps = 0, efficiency = 0;
  int nodes = 0, ranks_per_node = 0;  ///< 0 in documents from before the two-level model
  std::string allocation;             ///< "4x2" (nodes x ranks per node); empty in older documents
  /// The uncertainty band (fit residuals, the reference's spread); equal to the value in older documents.
  double step_us_low = 0, step_us_high = 0, efficiency_low = 0, efficiency_high = 0;
  std::string bottleneck;    ///< "inter-node" or "intra-node": the level bounding the costliest bucket
  bool lower_bound = false;  ///< the network was taken at the NICs' line rate (no inter-node sweep)
  /// NCCL's in-switch algorithms its buckets use ("nvls", "nvls_tree", "collnet"): costed by the model from the
  /// bytes moved, never measured by a sweep; empty when none (and in older documents).
  std::vector<std::string> in_switch;
};

/// The model's prediction of a measured size (from the smallest), beside what was measured (metrics.validation).
struct ScaleValidation {
  int ranks = 0, from_ranks = 0;
  double predicted_step_us = 0, measured_step_us = 0, relative_error = 0;
  std::string allocation;                                        ///< empty in older documents
  double predicted_step_us_low = 0, predicted_step_us_high = 0;  ///< the band; equal to the value when absent
  std::optional<bool> inside_band;
};

/// One gradient bucket's all-reduce at the planned size, split into the ring's two terms (metrics.buckets).
struct BucketBound {
  double bytes = 0, latency_us = 0, bandwidth_us = 0;
  std::string bound;  ///< "latency" or "bandwidth": the larger term
  std::string level;  ///< "intra-node" or "inter-node"; empty in older documents
};

/// The predicted step time with a bucket cap (metrics.buckets.caps).
struct BucketCap {
  double cap_mb = 0, step_us = 0;
  int buckets = 0;
};

struct ScaleSummary {
  std::vector<ScaleRow> rows;
  std::vector<ScalePrediction> predictions;
  std::optional<double> prediction_max_abs_error;  ///< model error on the measured sizes, when --from was given
  std::vector<ScaleValidation> validation;
  int plan_ranks = 0;  ///< the world size the bucket analysis is for (the largest asked about); 0 = none
  std::vector<BucketBound> buckets;
  std::vector<BucketCap> caps;
  std::optional<double> best_cap_mb;
};

/// @throws UsageError naming the field when a row does not fit.
ScaleRow scaleRowFromJson(const Json& j);
ScaleSummary scaleSummaryFromResult(const Result& r);

}  // namespace pf

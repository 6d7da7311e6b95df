// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/scale_row.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "pf/error.hpp"
#include "pf/json_field.hpp"

namespace pf {
namespace {

template <typename T>
T get(const Json& j, const char* name, T fallback) {
  readField(j, name, fallback, "scale");
  return fallback;
}

SpreadStat spread(const Json& j, const char* name) {
  SpreadStat s;
  if (!j.is_object() || !j.contains(name)) return s;
  const Json& v = j.at(name);
  s.median = get(v, "median", 0.0);
  s.min = get(v, "min", 0.0);
  s.max = get(v, "max", 0.0);
  s.stddev = get(v, "stddev", 0.0);
  s.n = get(v, "n", 0);
  return s;
}

}  // namespace

ScaleRow scaleRowFromJson(const Json& j) {
  if (!j.is_object() || !j.contains("ranks")) throw UsageError("result document: a scale row has no 'ranks' field");
  ScaleRow r;
  r.ranks = get(j, "ranks", 0);
  r.throughput_sps = spread(j, "throughput_sps");
  r.efficiency = spread(j, "efficiency");
  r.efficiency_base_ranks = get(j, "efficiency_base_ranks", 1);
  r.step_us_p50 = get(j, "step_us_p50", 0.0);
  r.step_us_p90 = get(j, "step_us_p90", 0.0);
  r.compute_us = get(j, "compute_us", 0.0);
  r.comm_us = get(j, "comm_us", 0.0);
  r.exposed_comm_us = get(j, "exposed_comm_us", 0.0);
  r.rest_us = get(j, "rest_us", 0.0);
  r.ranks_identical = get(j, "ranks_identical", false);
  r.equal_to_single_rank = get(j, "equal_to_single_rank", false);
  return r;
}

ScaleSummary scaleSummaryFromResult(const Result& r) {
  ScaleSummary s;
  for (const Json& row : r.rows) s.rows.push_back(scaleRowFromJson(row));
  if (r.metrics.contains("predictions") && r.metrics.at("predictions").is_array())
    for (const Json& p : r.metrics.at("predictions")) {
      ScalePrediction x;
      x.ranks = get(p, "ranks", 0);
      x.step_us = get(p, "step_us", 0.0);
      x.exposed_comm_us = get(p, "exposed_comm_us", 0.0);
      x.comm_us = get(p, "comm_us", 0.0);
      x.throughput_sps = get(p, "throughput_sps", 0.0);
      x.efficiency = get(p, "efficiency", 0.0);
      x.nodes = get(p, "nodes", 0);
      x.ranks_per_node = get(p, "ranks_per_node", 0);
      x.allocation = get(p, "allocation", std::string());
      x.step_us_low = get(p, "step_us_low", x.step_us);
      x.step_us_high = get(p, "step_us_high", x.step_us);
      x.efficiency_low = get(p, "efficiency_low", x.efficiency);
      x.efficiency_high = get(p, "efficiency_high", x.efficiency);
      x.bottleneck = get(p, "bottleneck", std::string());
      x.lower_bound = get(p, "lower_bound", false);
      for (const Json& b : p.value("buckets", Json::array()))
        if (b.is_object() && get(b, "in_switch", false)) {
          const std::string a = get(b, "algorithm", std::string());
          if (std::find(x.in_switch.begin(), x.in_switch.end(), a) == x.in_switch.end()) x.in_switch.push_back(a);
        }
      s.predictions.push_back(std::move(x));
    }
  if (r.metrics.contains("prediction_max_abs_error") && r.metrics.at("prediction_max_abs_error").is_number())
    s.prediction_max_abs_error = r.metrics.at("prediction_max_abs_error").get<double>();
  for (const Json& v : r.metrics.value("validation", Json::array())) {
    ScaleValidation x;
    x.ranks = get(v, "ranks", 0);
    x.from_ranks = get(v, "from_ranks", 0);
    x.predicted_step_us = get(v, "predicted_step_us", 0.0);
    x.measured_step_us = get(v, "measured_step_us", 0.0);
    x.relative_error = get(v, "relative_error", 0.0);
    x.allocation = get(v, "allocation", std::string());
    x.predicted_step_us_low = get(v, "predicted_step_us_low", x.predicted_step_us);
    x.predicted_step_us_high = get(v, "predicted_step_us_high", x.predicted_step_us);
    if (v.is_object() && v.contains("inside_band") && v.at("inside_band").is_boolean())
      x.inside_band = v.at("inside_band").get<bool>();
    s.validation.push_back(std::move(x));
  }
  const Json b = r.metrics.value("buckets", Json::object());
  if (b.is_object()) {
    s.plan_ranks = get(b, "ranks", 0);
    for (const Json& k : b.value("buckets", Json::array()))
      s.buckets.push_back({get(k, "bytes", 0.0), get(k, "latency_us", 0.0), get(k, "bandwidth_us", 0.0),
                           get(k, "bound", std::string()), get(k, "level", std::string())});
    for (const Json& c : b.value("caps", Json::array()))
      s.caps.push_back({get(c, "cap_mb", 0.0), get(c, "step_us", 0.0), get(c, "buckets", 0)});
    if (b.contains("best_cap_mb") && b.at("best_cap_mb").is_number()) s.best_cap_mb = b.at("best_cap_mb").get<double>();
  }
  return s;
}

}  // namespace pf

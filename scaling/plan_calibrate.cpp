// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "plan_calibrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "pf/error.hpp"

namespace pf::scaling {

ScaleCalibration calibrationFromScale(const RunReport& scale, const std::string& path) {
  const Result* r = nullptr;
  for (const Result& x : scale.results)
    if (x.kind == Kind::kScale && !x.rows.empty()) r = &x;
  if (!r)
    throw UsageError(
        fmt::format("--calibrate {}: no scale result with measured rows in it; give the document of "
                    "`preflight scale --ranks 1,2 --json FILE`",
                    path));
  ScaleCalibration c;
  c.source = path;
  c.rows = r->rows;
  c.parameters = r->params.value("parameters", 0.0);
  c.batchPerRank = r->params.value("batch_per_rank", 0.0);
  c.bucketCapMb = r->params.value("bucket_cap_mb", 25.0);
  const Json* base = nullptr;
  const Json* far = nullptr;
  for (const Json& row : c.rows) {
    if (!row.contains("ranks") || !row.contains("step_us_p50") || !row.contains("exposed_comm_us"))
      throw UsageError(fmt::format("--calibrate {}: a row lacks ranks, step_us_p50 or exposed_comm_us", path));
    if (!base || row["ranks"].get<int>() < (*base)["ranks"].get<int>()) base = &row;
    if (row.value("comm_us", 0.0) > 0 && (!far || row["ranks"].get<int>() > (*far)["ranks"].get<int>())) far = &row;
  }
  c.fromRanks = (*base)["ranks"].get<int>();
  c.stepComputeMs = ((*base)["step_us_p50"].get<double>() - (*base)["exposed_comm_us"].get<double>()) / 1e3;
  if (!(c.stepComputeMs > 0) || c.parameters <= 0 || c.batchPerRank <= 0)
    throw UsageError(
        fmt::format("--calibrate {}: its smallest size has no step time left after its exposed "
                    "communication, or params lack parameters/batch_per_rank",
                    path));
  if (far) {
    c.overlapRanks = (*far)["ranks"].get<int>();
    c.overlap = std::clamp(1.0 - (*far)["exposed_comm_us"].get<double>() / (*far)["comm_us"].get<double>(), 0.0, 1.0);
  }
  return c;
}

Workload workloadFromScale(const ScaleCalibration& c) {
  Workload w;
  w.name = "scale run";
  w.origin = c.source;
  w.parameters = c.parameters;
  w.gradientBytes = 4;  // the trainer's float32 gradients
  w.parallelism = Parallelism::kDdp;
  w.samplesPerGpu = c.batchPerRank;
  w.bucketCapMb = c.bucketCapMb;
  w.stepComputeMs = c.stepComputeMs;
  return w;
}

void calibrate(Workload& w, const ScaleCalibration& c) {
  if (std::abs(w.parameters - c.parameters) > 0.01 * c.parameters)
    throw UsageError(fmt::format(
        "--calibrate {}: the scale run trained {:g} parameters but {} describes {:g}; calibrate with a scale run of "
        "the same model, or leave --workload out to plan the scale run's own model",
        c.source, c.parameters, w.origin, w.parameters));
  w.stepComputeMs = c.stepComputeMs;
  w.computeFromFlops = false;
  if (!w.overlap && c.overlap) w.overlap = c.overlap;
}

Json measuredBesidePredicted(const PlanInput& in, const ScaleCalibration& c) {
  Json out = Json::array();
  for (const Json& row : c.rows) {
    const auto n = row.find("nodes");  // older documents carry null
    const int ranks = row["ranks"].get<int>(),
              nodes = n != row.end() && n->is_number() ? std::max(1, n->get<int>()) : 1;
    PlanInput at = in;
    at.gpusPerNode = (ranks + nodes - 1) / nodes;
    if (at.gpusPerNode % in.workload.tensorParallel != 0) continue;
    const Json p = planAllocation(at, nodes);
    const double measured = row["step_us_p50"].get<double>() / 1e3;
    const Json& e = row.contains("efficiency") ? row["efficiency"] : Json();
    out.push_back(Json{{"ranks", ranks},
                       {"nodes", nodes},
                       {"measured_step_ms", measured},
                       {"predicted_step_ms", p["step_ms"]},
                       {"predicted_step_ms_low", p["step_ms_low"]},
                       {"predicted_step_ms_high", p["step_ms_high"]},
                       {"measured_efficiency", e.is_object() ? e.value("median", 0.0) : 0.0},
                       {"predicted_efficiency", p["efficiency"]},
                       {"error", (p["step_ms"].get<double>() - measured) / measured}});
  }
  return out;
}

std::vector<std::string> optimisticPredictions(const Json& planRows, const Json& measured) {
  std::vector<std::string> out;
  for (const Json& p : planRows)
    for (const Json& m : measured)
      if (m["ranks"].get<int>() < p["gpus"].get<int>() && m["measured_efficiency"].get<double>() > 0 &&
          p["efficiency"].get<double>() > m["measured_efficiency"].get<double>() + 1e-9) {
        out.push_back(
            fmt::format("E({}) is predicted at {:.2f}, above the {:.2f} measured at {} ranks: the model is "
                        "optimistic there",
                        p["gpus"].get<int>(), p["efficiency"].get<double>(), m["measured_efficiency"].get<double>(),
                        m["ranks"].get<int>()));
        break;
      }
  return out;
}

}  // namespace pf::scaling

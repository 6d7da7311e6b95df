// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "sweep_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "buckets.hpp"
#include "pf/error.hpp"
#include "pf/sweep_row.hpp"

namespace pf::scaling {
namespace {

CommModel fitFromRows(const std::vector<double>& bytes, const std::vector<double>& t, const RunReport& sweep,
                      const std::string& path) {
  const int p = sweep.context.world_size;
  if (bytes.size() < 2 || p < 2)
    throw UsageError(
        fmt::format("{}: needs an all_reduce sweep on at least 2 ranks with 2 or more sizes (found {} "
                    "rows on {} ranks); make one with `preflight sweep all_reduce --local-ranks 2 "
                    "--json {}`",
                    path, bytes.size(), p, path));
  return fitCommModel(bytes, t, p);
}

}  // namespace

CommModel commModelFromSweep(const RunReport& sweep, const std::string& path) {
  // The trainer reduces each bucket in place (MPI_IN_PLACE; DDP and NCCL all-reduce a bucket buffer in place too),
  // so the in-place rows describe its cost; an out-of-place call also copies the buffer, which at 4 MiB on this
  // machine made it 40-60% slower. Out-of-place rows serve only a sweep that has no in-place ones.
  std::vector<double> bytes[2], t[2];  // [0] in place, [1] out of place
  for (const auto& r : sweep.results)
    for (const auto& j : r.rows) {
      if (!j.contains("collective") || j["collective"] != "all_reduce") continue;
      SweepRow row = sweepRowFromJson(j);
      if (row.time_us <= 0 || (row.placement != "in" && row.placement != "out")) continue;
      const int k = row.placement == "in" ? 0 : 1;
      bytes[k].push_back(static_cast<double>(row.size_bytes));
      t[k].push_back(row.time_us);
    }
  const int use = bytes[0].size() >= 2 ? 0 : 1;
  return fitFromRows(bytes[use], t[use], sweep, path);
}

StepModelInput stepInputFromRow(const Json& row, const TrainerSpec& spec) {
  StepModelInput in;
  in.computeUs = row["compute_us"].get<double>();
  in.otherUs = std::max(0.0, row["step_us_p50"].get<double>() - in.computeUs - row["exposed_comm_us"].get<double>());
  in.baseRanks = row["ranks"].get<int>();
  if (row.contains("step_us_samples")) in.stepSamplesUs = row["step_us_samples"].get<std::vector<double>>();
  // Backward FLOPs per layer: dW (2 B in out) and, except for layer 0, dX (2 B in out); forward 2 B in out.
  double fwd = 0, back = 0;
  std::vector<double> layerBack(spec.model.depth);
  for (int l = 0; l < spec.model.depth; ++l) {
    auto [i, o] = spec.model.layerShape(l);
    fwd += 2.0 * i * o;
    layerBack[l] = (l == 0 ? 2.0 : 4.0) * i * o;
    back += layerBack[l];
  }
  in.backwardFraction = back / (fwd + back);
  Mlp m(spec.model);
  for (const auto& b : makeBuckets(m.slots(), spec.bucketCapBytes)) {
    double done = 0;  // backward runs from the last layer down to b.readyAfterLayer
    for (int l = spec.model.depth - 1; l >= b.readyAfterLayer; --l) done += layerBack[l];
    in.bucketBytes.push_back(static_cast<double>(b.count) * sizeof(float));
    in.bucketReadyFraction.push_back(done / back);
  }
  return in;
}

Json predictRows(const Json& base, const TrainerSpec& spec, const CommModel& m, const std::vector<int>& ranks) {
  auto in = stepInputFromRow(base, spec);
  const double perRankBatch = base["batch_per_rank"].get<double>();
  const double baseStep = predictStep(in, m, 1).stepUs;
  Json out = Json::array();
  for (int n : ranks) {
    auto p = predictStep(in, m, n);
    out.push_back(Json{{"ranks", n},
                       {"step_us", p.stepUs},
                       {"exposed_comm_us", p.exposedUs},
                       {"comm_us", p.commUs},
                       {"straggler_us", p.stragglerUs},
                       {"throughput_sps", perRankBatch * n / (p.stepUs * 1e-6)},
                       {"efficiency", baseStep / p.stepUs}});
  }
  return out;
}

Json validatePrediction(const Json& rows, const TrainerSpec& spec, const CommModel& m) {
  Json out{{"rows", Json::array()}, {"max_abs_error", 0.0}};
  const Json* base = nullptr;
  for (const auto& r : rows)
    if (!base || r["ranks"].get<int>() < (*base)["ranks"].get<int>()) base = &r;
  if (!base) return out;
  double worst = 0;
  for (const auto& r : rows) {
    const int n = r["ranks"].get<int>();
    if (n == (*base)["ranks"].get<int>()) continue;
    auto pred = predictRows(*base, spec, m, {n})[0];
    const double measured = r["step_us_p50"].get<double>();
    const double err = (pred["step_us"].get<double>() - measured) / measured;
    worst = std::max(worst, std::abs(err));
    out["rows"].push_back(Json{{"ranks", n},
                               {"from_ranks", (*base)["ranks"]},
                               {"predicted_step_us", pred["step_us"]},
                               {"measured_step_us", measured},
                               {"relative_error", err}});
  }
  out["max_abs_error"] = worst;
  return out;
}

Json modelToJson(const CommModel& m) {
  auto ab = [](const AlphaBeta& x) { return Json{{"alpha_us", x.alphaUs}, {"beta_us_per_byte", x.betaUsPerB}}; };
  return Json{{"small", ab(m.small)}, {"large", ab(m.large)}, {"split_bytes", m.splitBytes}};
}

Json bucketAdvice(const Json& base, const TrainerSpec& spec, const CommModel& m, int ranks) {
  Json out{{"ranks", ranks}, {"buckets", Json::array()}, {"caps", Json::array()}};
  const double n = ranks;
  for (double bytes : stepInputFromRow(base, spec).bucketBytes) {
    const AlphaBeta& ab = bytes < m.splitBytes ? m.small : m.large;
    const double latency = 2 * (n - 1) * ab.alphaUs, bandwidth = 2 * (n - 1) / n * bytes * ab.betaUsPerB;
    out["buckets"].push_back(Json{{"bytes", bytes},
                                  {"latency_us", latency},
                                  {"bandwidth_us", bandwidth},
                                  {"bound", latency > bandwidth ? "latency" : "bandwidth"}});
  }
  // Caps from 64 KiB to 256 MiB, and the run's own; fewer, larger buckets pay alpha less often but start later.
  std::vector<double> capsMb{0.0625, 0.25, 1, 5, 25, 100, 256};
  const double ownMb = static_cast<double>(spec.bucketCapBytes) / (1024.0 * 1024.0);
  if (std::find(capsMb.begin(), capsMb.end(), ownMb) == capsMb.end()) capsMb.push_back(ownMb);
  std::sort(capsMb.begin(), capsMb.end());
  double bestUs = 0, bestMb = ownMb;
  for (double mb : capsMb) {
    TrainerSpec s = spec;
    s.bucketCapBytes = static_cast<std::size_t>(mb * 1024 * 1024);
    const StepModelInput in = stepInputFromRow(base, s);
    const double stepUs = predictStep(in, m, ranks).stepUs;
    out["caps"].push_back(Json{{"cap_mb", mb}, {"buckets", in.bucketBytes.size()}, {"step_us", stepUs}});
    // Ties keep the run's own cap (or the smaller one): the model gives no reason to change it.
    if (bestUs == 0 || stepUs < bestUs * (1 - 1e-9) || (std::abs(stepUs - bestUs) <= bestUs * 1e-9 && mb == ownMb)) {
      bestUs = stepUs;
      bestMb = mb;
    }
  }
  out["best_cap_mb"] = bestMb;
  out["best_step_us"] = bestUs;
  return out;
}

}  // namespace pf::scaling

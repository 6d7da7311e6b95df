// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "sweep_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "buckets.hpp"
#include "pf/error.hpp"
#include "pf/json_field.hpp"
#include "pf/sweep_row.hpp"

namespace pf::scaling {
namespace {

LevelFit fitFromRows(const std::vector<double>& bytes, const std::vector<double>& t, const RunReport& sweep,
                     const std::string& path) {
  const int p = sweep.context.world_size;
  if (bytes.size() < 2 || p < 2)
    throw UsageError(
        fmt::format("{}: needs an all_reduce sweep on at least 2 ranks with 2 or more sizes (found {} "
                    "rows on {} ranks); make one with `preflight sweep all_reduce --local-ranks 2 "
                    "--json {}`",
                    path, bytes.size(), p, path));
  return LevelFit{fitCommModel(bytes, t, p), p, std::max(1, sweep.context.node_count), path};
}

/// The base row's spread over repetitions, relative: half the throughput's min-max range over its median.
double repetitionSpread(const Json& base) {
  if (!base.contains("throughput_sps") || !base["throughput_sps"].is_object()) return 0.0;
  const Json& t = base["throughput_sps"];
  const double med = t.value("median", 0.0);
  return med > 0 ? (t.value("max", med) - t.value("min", med)) / (2 * med) : 0.0;
}

struct Predicted {
  StepPrediction mid, low, high;
};

/// The step at `a`, and the band: communication moved by each bucket's fit error, the rest by `spread`.
Predicted predictAt(const StepModelInput& in, const FabricModel& m, const Allocation& a, double spread) {
  auto cost = [&](double sign) {
    return [&m, &a, sign](double bytes) {
      const AllReduceCost c = m.allReduce(bytes, a);
      return c.us * (1 + sign * c.relError);
    };
  };
  StepModelInput lo = in, hi = in;
  for (StepModelInput* x : {&lo, &hi}) {
    const double f = x == &lo ? 1 - spread : 1 + spread;
    x->computeUs *= f;
    x->otherUs *= f;
  }
  return {predictStep(in, cost(0), a.ranks()), predictStep(lo, cost(-1), a.ranks()),
          predictStep(hi, cost(+1), a.ranks())};
}

Allocation rowAllocation(const Json& row) {
  const int n = row["ranks"].get<int>(), nodes = std::max(1, row.value("nodes", 1));
  return {nodes, (n + nodes - 1) / nodes};
}

}  // namespace

LevelFit levelFromSweep(const RunReport& sweep, const std::string& path) {
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

Json predictRows(const Json& base, const TrainerSpec& spec, const FabricModel& m, const std::vector<Allocation>& at) {
  const StepModelInput in = stepInputFromRow(base, spec);
  const double perRankBatch = base["batch_per_rank"].get<double>();
  // E(N) is relative to the smallest measured size, as the measured rows' efficiency is (efficiency_base_ranks).
  const double baseStep = predictAt(in, m, rowAllocation(base), 0).mid.stepUs;
  const double spread = repetitionSpread(base);
  Json out = Json::array();
  for (const Allocation& a : at) {
    const Predicted p = predictAt(in, m, a, spread);
    const int n = a.ranks();
    auto thr = [&](const StepPrediction& x) { return perRankBatch * n / (x.stepUs * 1e-6); };
    Json buckets = Json::array();
    std::string bottleneck;
    double worst = -1;
    for (double bytes : in.bucketBytes) {
      const AllReduceCost c = m.allReduce(bytes, a);
      buckets.push_back(Json{{"bytes", bytes},
                             {"us", c.us},
                             {"level", c.level},
                             {"algorithm", c.algorithm},
                             {"in_switch", c.inSwitch},
                             {"bound", c.latencyUs > c.bandwidthUs ? "latency" : "bandwidth"}});
      if (c.us > worst) worst = c.us, bottleneck = c.level;
    }
    out.push_back(Json{{"ranks", n},
                       {"nodes", a.nodes},
                       {"ranks_per_node", a.ranksPerNode},
                       {"allocation", a.label()},
                       {"step_us", p.mid.stepUs},
                       {"step_us_low", p.low.stepUs},
                       {"step_us_high", p.high.stepUs},
                       {"exposed_comm_us", p.mid.exposedUs},
                       {"comm_us", p.mid.commUs},
                       {"straggler_us", p.mid.stragglerUs},
                       {"throughput_sps", thr(p.mid)},
                       {"throughput_sps_low", thr(p.high)},
                       {"throughput_sps_high", thr(p.low)},
                       {"efficiency", baseStep / p.mid.stepUs},
                       {"efficiency_low", baseStep / p.high.stepUs},
                       {"efficiency_high", baseStep / p.low.stepUs},
                       {"bottleneck", n > 1 ? Json(bottleneck) : Json()},
                       {"lower_bound", m.interFromLineRate && a.nodes > 1},  // network at line rate
                       {"buckets", buckets}});
  }
  return out;
}

Json validatePrediction(const Json& rows, const TrainerSpec& spec, const FabricModel& m) {
  Json out{{"rows", Json::array()}, {"max_abs_error", 0.0}, {"inside_band", 0}};
  const Json* base = nullptr;
  for (const auto& r : rows)
    if (!base || r["ranks"].get<int>() < (*base)["ranks"].get<int>()) base = &r;
  if (!base) return out;
  double worst = 0;
  int inside = 0;
  for (const auto& r : rows) {
    const int n = r["ranks"].get<int>();
    if (n == (*base)["ranks"].get<int>()) continue;
    const Allocation a = rowAllocation(r);
    const Json pred = predictRows(*base, spec, m, {a})[0];
    const double measured = r["step_us_p50"].get<double>();
    const double err = (pred["step_us"].get<double>() - measured) / measured;
    const bool in = measured >= pred["step_us_low"].get<double>() && measured <= pred["step_us_high"].get<double>();
    worst = std::max(worst, std::abs(err));
    inside += in ? 1 : 0;
    out["rows"].push_back(Json{{"ranks", n},
                               {"allocation", a.label()},
                               {"from_ranks", (*base)["ranks"]},
                               {"predicted_step_us", pred["step_us"]},
                               {"predicted_step_us_low", pred["step_us_low"]},
                               {"predicted_step_us_high", pred["step_us_high"]},
                               {"bottleneck", pred["bottleneck"]},
                               {"measured_step_us", measured},
                               {"relative_error", err},
                               {"inside_band", in}});
  }
  out["max_abs_error"] = worst;
  out["inside_band"] = inside;
  return out;
}

Json modelToJson(const FabricModel& m) {
  auto ab = [](const AlphaBeta& x) {
    return Json{{"alpha_us", x.alphaUs}, {"beta_us_per_byte", x.betaUsPerB}, {"max_rel_error", x.relError}};
  };
  auto level = [&](const LevelFit& l) {
    return Json{{"small", ab(l.fit.small)}, {"large", ab(l.fit.large)}, {"split_bytes", l.fit.splitBytes},
                {"ranks", l.ranks},         {"nodes", l.nodes},         {"source", l.source}};
  };
  Json out{{"levels", m.singleLevel() ? 1 : 2}, {"inter_bandwidth_factor", m.interBandwidthFactor}};
  if (m.intra) out["intra_node"] = level(*m.intra);
  if (m.inter) {
    out["inter_node"] = level(*m.inter);
    out["inter_node"]["from_line_rate"] = m.interFromLineRate;
  }
  if (m.nics) {
    const NicSet& n = *m.nics;
    out["nics"] = Json{{"transport", n.transport},
                       {"names", n.names},
                       {"gbit_total", n.gbitTotal},
                       {"host", n.host},
                       {"hosts", n.hosts},
                       {"source", n.source},
                       {"probe_warning", jsonOrNull(n.caveat)}};
    if (m.inSwitch)
      out["in_switch"] = Json{
          {"nvls", m.inSwitch->nvls},       {"nvls_evidence", m.inSwitch->nvlsWhy},
          {"collnet", m.inSwitch->collNet}, {"collnet_evidence", m.inSwitch->collNetWhy},
          {"source", m.inSwitch->source},   {"measured", false}};  // costed from bytes moved; no sweep here ran them
    if (const double f = lineRateFraction(m); f > 0) {
      out["inter_node"]["achieved_gbit"] = f * n.gbitTotal;
      out["inter_node"]["line_rate_fraction"] = f;
    }
  }
  return out;
}

Json bucketAdvice(const Json& base, const TrainerSpec& spec, const FabricModel& m, const Allocation& at) {
  Json out{{"ranks", at.ranks()}, {"allocation", at.label()}, {"buckets", Json::array()}, {"caps", Json::array()}};
  for (double bytes : stepInputFromRow(base, spec).bucketBytes) {
    const AllReduceCost c = m.allReduce(bytes, at);
    out["buckets"].push_back(Json{{"bytes", bytes},
                                  {"latency_us", c.latencyUs},
                                  {"bandwidth_us", c.bandwidthUs},
                                  {"level", c.level},
                                  {"algorithm", c.algorithm},
                                  {"in_switch", c.inSwitch},
                                  {"bound", c.latencyUs > c.bandwidthUs ? "latency" : "bandwidth"}});
  }
  // Caps from 64 KiB to 256 MiB, and the run's own; fewer, larger buckets pay alpha less often but start later.
  std::vector<double> capsMb{0.0625, 0.25, 1, 5, 25, 100, 256};
  const double ownMb = static_cast<double>(spec.bucketCapBytes) / (1024.0 * 1024.0);
  if (std::find(capsMb.begin(), capsMb.end(), ownMb) == capsMb.end()) capsMb.push_back(ownMb);
  std::sort(capsMb.begin(), capsMb.end());
  const auto cost = [&](double bytes) { return m.allReduce(bytes, at).us; };
  double bestUs = 0, bestMb = ownMb;
  for (double mb : capsMb) {
    TrainerSpec s = spec;
    s.bucketCapBytes = static_cast<std::size_t>(mb * 1024 * 1024);
    const StepModelInput in = stepInputFromRow(base, s);
    const double stepUs = predictStep(in, cost, at.ranks()).stepUs;
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

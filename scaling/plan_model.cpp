// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "plan_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "comm_volume.hpp"
#include "perf_model.hpp"
#include "pf/error.hpp"

namespace pf::scaling {

namespace {

struct Layout {
  int gpus = 0, dp = 0;
  Allocation dpGroup, tpGroup;
};

Layout layoutFor(const PlanInput& in, int nodes) {
  const int tp = in.workload.tensorParallel;
  if (in.gpusPerNode % tp != 0)
    throw UsageError(fmt::format("--gpus-per-node {}: tensor_parallel = {} ({}) must divide it", in.gpusPerNode, tp,
                                 in.workload.origin));
  const int perNode = in.gpusPerNode / tp;
  return {nodes * in.gpusPerNode, nodes * perNode, Allocation{nodes, perNode}, Allocation{1, tp}};
}

std::vector<double> bucketsOf(double bytes, double capBytes) {
  std::vector<double> out;
  for (double left = bytes; left > 0; left -= capBytes) out.push_back(std::min(left, capBytes));
  return out;
}

/// One collective's cost over `a`: an all-reduce from the fabric model, a reduce-scatter or all-gather half of one.
double collectiveUs(const FabricModel& m, const std::string& coll, double bytes, const Allocation& a, double sign) {
  if (a.ranks() <= 1 || bytes <= 0) return 0;
  const AllReduceCost c = m.allReduce(bytes, a);
  return c.us * (1 + sign * c.relError) * (coll == "all_reduce" ? 1.0 : 0.5);
}

struct CollectiveTime {
  double timeUs = 0, exposedUs = 0;
};

struct PlannedStep {
  double computeUs = 0, stepUs = 0;
  std::map<std::string, CollectiveTime> perCollective;  // "phase collective what" -> time, exposed
};

PlannedStep simulate(const PlanInput& in, const Layout& l, double capMb, double sign) {
  const Workload& w = in.workload;
  const FabricModel& m = in.fabric;
  PlannedStep s;
  s.computeUs = w.stepComputeMs * 1e3;
  const double fwd = s.computeUs / 3, back = s.computeUs - fwd;
  const std::vector<CollectiveVolume> vols = stepVolumes(w, l.dp);
  const double psi = w.gradientBytesTotal() / w.tensorParallel;
  const std::vector<double> buckets = bucketsOf(psi, capMb * 1024 * 1024);
  auto key = [](const CollectiveVolume& v) { return v.phase + " " + v.collective + " " + v.what; };
  double exposed = 0;
  // Backward: each bucket's collectives in ready order.
  std::vector<const CollectiveVolume*> backward, forward, after;
  for (const CollectiveVolume& v : vols) {
    if (v.phase == "backward") backward.push_back(&v);
    if (v.phase == "forward") forward.push_back(&v);
    if (v.phase == "after_step") after.push_back(&v);
    if (v.phase == "tensor_parallel") {
      // 4 all-reduces per layer of samples x sequence x hidden x bytes each (comm_volume.hpp).
      const double each = v.bufferBytes / (4.0 * *w.layers);
      const double t = 4.0 * *w.layers * collectiveUs(m, "all_reduce", each, l.tpGroup, sign);
      s.perCollective[key(v)] = {t, t};
      exposed += t;
    }
  }
  auto costOf = [&](const std::vector<const CollectiveVolume*>& set, double bytes) {
    double t = 0;
    for (const CollectiveVolume* v : set) t += collectiveUs(m, v->collective, bytes, l.dpGroup, sign);
    return t;
  };
  auto share = [&](const std::vector<const CollectiveVolume*>& set, double total, double exp) {
    double sum = 0;
    std::vector<double> each;
    for (const CollectiveVolume* v : set) {
      double t = 0;
      for (double b : buckets) t += collectiveUs(m, v->collective, b, l.dpGroup, sign);
      each.push_back(t);
      sum += t;
    }
    // All of it exposed stays exactly all of it: a share computed as exp x each / sum may round a hair off.
    for (std::size_t i = 0; i < set.size(); ++i)
      s.perCollective[key(*set[i])] = {each[i], sum <= 0 ? 0 : exp >= sum ? each[i] : exp * each[i] / sum};
    (void)total;
  };
  const std::optional<double> frac = w.overlap;
  if (!backward.empty()) {
    StepModelInput sm;
    sm.computeUs = s.computeUs;
    sm.backwardFraction = back / s.computeUs;
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      sm.bucketBytes.push_back(buckets[b]);
      sm.bucketReadyFraction.push_back(static_cast<double>(b + 1) / buckets.size());
    }
    const StepPrediction p = predictStep(
        sm, [&](double bytes) { return costOf(backward, bytes); }, l.dp);
    const double e = frac ? std::max(p.commUs * (1 - *frac), p.commUs - back) : p.exposedUs;
    share(backward, p.commUs, e);
    exposed += e;
  }
  if (!forward.empty()) {
    // Prefetch: unit i's forward waits for its all-gather and for unit i-1.
    const double unitFwd = fwd / buckets.size();
    double commDone = 0, fwdDone = 0, total = 0;
    for (double b : buckets) {
      const double t = costOf(forward, b);
      total += t;
      commDone += t;
      fwdDone = std::max(commDone, fwdDone) + unitFwd;
    }
    const double e = frac ? std::max(total * (1 - *frac), total - fwd) : std::max(0.0, fwdDone - fwd);
    share(forward, total, e);
    exposed += e;
  }
  if (!after.empty()) {
    double total = 0;
    for (double b : buckets) total += costOf(after, b);
    share(after, total, total);
    exposed += total;
  }
  s.stepUs = s.computeUs + exposed;
  return s;
}

double bandRel(double low, double mid, double high) { return mid > 0 ? (high - low) / (2 * mid) : 0; }

}  // namespace

Json planAllocation(const PlanInput& in, int nodes) {
  const Workload& w = in.workload;
  const Layout l = layoutFor(in, nodes);
  const PlannedStep mid = simulate(in, l, w.bucketCapMb, 0), lo = simulate(in, l, w.bucketCapMb, -1),
                    hi = simulate(in, l, w.bucketCapMb, +1);
  Json colls = Json::array();
  double exposed = 0, hidden = 0;
  for (const CollectiveVolume& v : stepVolumes(w, l.dp)) {
    const CollectiveTime& p = mid.perCollective.at(v.phase + " " + v.collective + " " + v.what);
    // Rounding in the step simulation leaves a hair (1e-17 us) where nothing is hidden: that is none.
    const double hid = p.timeUs - p.exposedUs > 1e-9 * p.timeUs ? p.timeUs - p.exposedUs : 0.0;
    colls.push_back(Json{{"collective", v.collective},
                         {"phase", v.phase},
                         {"what", v.what},
                         {"ranks", v.ranks},
                         {"buffer_bytes", v.bufferBytes},
                         {"wire_bytes_per_gpu", v.wireBytes},
                         {"time_ms", p.timeUs / 1e3},
                         {"exposed_ms", (p.timeUs - hid) / 1e3},
                         {"hidden_ms", hid / 1e3}});
    exposed += p.timeUs - hid, hidden += hid;
  }
  const double batch = l.dp * w.samplesPerGpu;
  auto sps = [&](const PlannedStep& s) { return batch / (s.stepUs * 1e-6); };
  Json row{{"nodes", nodes},
           {"gpus", l.gpus},
           {"data_parallel", l.dp},
           {"tensor_parallel", w.tensorParallel},
           {"compute_ms", mid.computeUs / 1e3},
           {"exposed_ms", exposed / 1e3},
           {"hidden_ms", hidden / 1e3},
           {"step_ms", mid.stepUs / 1e3},
           {"step_ms_low", lo.stepUs / 1e3},
           {"step_ms_high", hi.stepUs / 1e3},
           {"samples_per_s", sps(mid)},
           {"samples_per_s_low", sps(hi)},
           {"samples_per_s_high", sps(lo)},
           {"efficiency", mid.computeUs / mid.stepUs},
           {"efficiency_low", hi.computeUs / hi.stepUs},
           {"efficiency_high", lo.computeUs / lo.stepUs},
           {"dp_wire_bytes_per_gpu", dataParallelWireBytes(stepVolumes(w, l.dp))},
           {"bound", in.fabric.interFromLineRate && nodes > 1},
           {"collectives", colls}};
  if (w.samplesToTrain) {
    const double steps = std::ceil(*w.samplesToTrain / batch);
    const double hours = steps * mid.stepUs * 1e-6 / 3600;
    row["steps_to_train"] = steps;
    row["hours_to_train"] = hours;
    row["hours_to_train_low"] = steps * lo.stepUs * 1e-6 / 3600;
    row["hours_to_train_high"] = steps * hi.stepUs * 1e-6 / 3600;
    row["gpu_hours"] = hours * l.gpus;
    if (w.gpuHourCost) row["cost"] = hours * l.gpus * *w.gpuHourCost;
  }
  return row;
}

Json buildPlan(const PlanInput& in) {
  Json out{{"rows", Json::array()}};
  for (int n : in.nodes) out["rows"].push_back(planAllocation(in, n));
  // The largest node count whose E(N) stays at or above the target: doubling, then bisection (E falls with N
  // once the allocation spans nodes: more ring steps, the same bytes per hop).
  auto largest = [&](const char* field) -> Json {
    auto ok = [&](int n) { return planAllocation(in, n)[field].get<double>() >= in.targetEfficiency; };
    if (!ok(1)) return Json();
    int good = 1, bad = 0;
    for (int n = 2; n <= (1 << 16); n *= 2) {
      if (!ok(n)) {
        bad = n;
        break;
      }
      good = n;
    }
    if (bad == 0) return good;  // still above the target at the search's end (nodes_at_target_searched_to)
    while (bad - good > 1) {
      const int m = good + (bad - good) / 2;
      (ok(m) ? good : bad) = m;
    }
    return good;
  };
  out["nodes_at_target"] = largest("efficiency");
  out["nodes_at_target_low"] = largest("efficiency_low");
  out["nodes_at_target_high"] = largest("efficiency_high");
  out["nodes_at_target_searched_to"] = 1 << 16;

  // At the largest allocation asked about: what bounds each bucket of the gradients' collective, and the caps.
  const int far = *std::max_element(in.nodes.begin(), in.nodes.end());
  const Layout l = layoutFor(in, far);
  const Workload& w = in.workload;
  const double psi = w.gradientBytesTotal() / w.tensorParallel;
  Json buckets = Json::array();
  if (l.dp > 1) {
    std::map<double, int> counts;
    for (double b : bucketsOf(psi, w.bucketCapMb * 1024 * 1024)) ++counts[b];
    for (const auto& [bytes, count] : counts) {
      const AllReduceCost c = in.fabric.allReduce(bytes, l.dpGroup);
      buckets.push_back(Json{{"bytes", bytes},
                             {"count", count},
                             {"latency_us", c.latencyUs},
                             {"bandwidth_us", c.bandwidthUs},
                             {"level", c.level},
                             {"algorithm", c.algorithm},
                             {"bound", c.latencyUs > c.bandwidthUs ? "latency" : "bandwidth"}});
    }
  }
  out["buckets_at_nodes"] = far;
  out["buckets"] = buckets;
  std::vector<double> caps{1, 5, 25, 100, 256, 1024};
  if (std::find(caps.begin(), caps.end(), w.bucketCapMb) == caps.end()) caps.push_back(w.bucketCapMb);
  std::sort(caps.begin(), caps.end());
  Json capRows = Json::array();
  double bestMs = 0, bestMb = w.bucketCapMb, ownMs = 0;
  for (double mb : caps) {
    const double ms = simulate(in, l, mb, 0).stepUs / 1e3;
    capRows.push_back(Json{{"cap_mb", mb}, {"buckets", bucketsOf(psi, mb * 1024 * 1024).size()}, {"step_ms", ms}});
    if (mb == w.bucketCapMb) ownMs = ms;
    if (bestMs == 0 || ms < bestMs * (1 - 1e-9)) bestMs = ms, bestMb = mb;
  }
  const Json farRow = planAllocation(in, far);
  const double band = bandRel(farRow["step_ms_low"].get<double>(), farRow["step_ms"].get<double>(),
                              farRow["step_ms_high"].get<double>());
  const double gain = ownMs > 0 ? (ownMs - bestMs) / ownMs : 0;
  out["caps"] = capRows;
  out["best_cap_mb"] = bestMb;
  out["best_cap_gain"] = gain;
  out["band_at_caps"] = band;
  // A change is worth recommending only when its predicted gain is larger than the model's own uncertainty and
  // than what a training step varies by from one repeat to the next (a gain of a fraction of a percent could not
  // be seen in a measurement, so it is not advice).
  constexpr double kMinCapGain = 0.02;
  out["min_cap_gain"] = kMinCapGain;
  out["recommend_cap"] = bestMb != w.bucketCapMb && gain > std::max(band, kMinCapGain) ? Json(bestMb) : Json();

  Json sizes = Json::array();
  for (double s : in.sizes)
    for (int n : in.nodes) {
      const Allocation a{n, in.gpusPerNode};
      if (a.ranks() < 2) continue;
      const AllReduceCost c = in.fabric.allReduce(s, a);
      const double factor = 2.0 * (a.ranks() - 1) / a.ranks();
      sizes.push_back(Json{{"bytes", s},
                           {"nodes", n},
                           {"ranks", a.ranks()},
                           {"time_us", c.us},
                           {"busbw_gbps", c.us > 0 ? s / c.us / 1e3 * factor : 0.0},
                           {"algorithm", c.algorithm},
                           {"level", c.level},
                           {"bound", in.fabric.interFromLineRate && n > 1}});
    }
  out["sizes"] = sizes;
  return out;
}

}  // namespace pf::scaling

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "scale_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "efficiency.hpp"
#include "reducer.hpp"

namespace pf::scaling {
namespace {
double pct(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(std::min<double>(v.size() - 1, std::floor(q * (v.size() - 1) + 0.5)))];
}
Json spreadJson(const Spread& s) {
  return Json{{"median", s.median}, {"min", s.min}, {"max", s.max}, {"stddev", s.stddev}, {"n", s.n}};
}
}  // namespace

Json runWorldSize(const ScaleOptions& opt, int n) {
  // Collective on every launched rank; ranks >= n get no group and go straight to the next size.
  auto group = makeMpiReducer(n);
  if (!group) return Json();
  GradReducer* g = group.get();

  TrainerSpec spec = opt.trainer;
  const int smallest = *std::min_element(opt.ranks.begin(), opt.ranks.end());
  if (opt.strong) spec.batchPerRank = opt.trainer.batchPerRank * smallest / n;
  const int global = spec.batchPerRank * n;
  std::vector<double> thr, stepUs, computeUs, commUs, exposedUs;
  int overlapped = 0, buckets = 0;
  std::vector<float> last;
  double checksum = 0;
  for (int rep = 0; rep < opt.reps; ++rep) {
    Trainer t(spec, *g);
    for (int s = 0; s < opt.warmup; ++s) t.step(s);
    g->barrier();
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < opt.steps; ++s) {
      StepTiming st = t.step(opt.warmup + s);
      stepUs.push_back(g->allMax(st.stepUs));  // a step is as slow as its slowest rank
      computeUs.push_back(g->allSum(st.computeUs) / n);
      commUs.push_back(g->allSum(st.commUs) / n);
      exposedUs.push_back(g->allSum(st.exposedUs) / n);
    }
    const double wall = g->allMax(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    thr.push_back(global * opt.steps / wall);
    for (const auto& e : t.lastEvents()) overlapped += e.completedAfterLayers < spec.model.depth ? 1 : 0;
    buckets += static_cast<int>(t.lastEvents().size());
    if (rep == opt.reps - 1) {
      last = t.model().params();
      checksum = t.model().checksum();
    }
  }
  // Every rank must hold the same parameters: the max and min of the checksums must agree.
  const bool ranksEqual = g->allMax(checksum) == -g->allMax(-checksum);
  Json row;
  if (g->rank() == 0) {
    TrainerSpec ref = spec;
    ref.batchPerRank = global;
    auto one = makeSoloReducer();
    Trainer single(ref, *one);
    for (int s = 0; s < opt.warmup + opt.steps; ++s) single.step(s);
    double diff = 0;
    for (std::size_t i = 0; i < last.size(); ++i)
      diff = std::max(diff, static_cast<double>(std::abs(last[i] - single.model().params()[i])));
    auto thrS = spreadOf(thr);
    row = Json{{"ranks", n},
               {"batch_per_rank", spec.batchPerRank},
               {"global_batch", global},
               {"reps", opt.reps},
               {"steps", opt.steps},
               {"throughput_sps", spreadJson(thrS)},
               {"throughput_reps_sps", thr},
               {"step_us_p50", pct(stepUs, 0.5)},
               {"step_us_p90", pct(stepUs, 0.9)},
               {"compute_us", pct(computeUs, 0.5)},
               {"comm_us", pct(commUs, 0.5)},
               {"exposed_comm_us", pct(exposedUs, 0.5)},
               {"buckets", buckets / opt.reps},
               {"buckets_completed_during_backward", overlapped / opt.reps},
               {"checksum", checksum},
               {"ranks_identical", ranksEqual},
               {"max_param_diff_vs_single_rank", diff},
               {"equal_to_single_rank", diff <= opt.equalityTolerance}};
  }
  return row;
}

void addEfficiency(Json& rows) {
  const Json* base = nullptr;
  for (const auto& r : rows)
    if (!base || r["ranks"].get<int>() < (*base)["ranks"].get<int>()) base = &r;
  if (!base) return;
  const int n0 = (*base)["ranks"].get<int>();
  // Efficiency relative to N0 ranks: E = thr(N) / ((N/N0) thr(N0)); with N0 = 1 this is the usual E(N).
  std::vector<double> b;
  for (const auto& v : (*base)["throughput_reps_sps"]) b.push_back(v.get<double>() / n0);
  for (auto& r : rows) {
    std::vector<double> t;
    for (const auto& v : r["throughput_reps_sps"]) t.push_back(v.get<double>());
    r["efficiency"] = spreadJson(efficiency(t, b, r["ranks"].get<int>()));
    r["efficiency_base_ranks"] = n0;
  }
}

}  // namespace pf::scaling

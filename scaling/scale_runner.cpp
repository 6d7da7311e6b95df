// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "scale_runner.hpp"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "efficiency.hpp"
#include "reducer.hpp"
#include "step_stats.hpp"

namespace pf::scaling {

int blasThreadsPerRank(int requested, int ranksOnNode) {
  if (requested > 0) return requested;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / std::max(1, ranksOnNode));
}

int useBlasThreads(int requested, int localRanks) {
  openblas_set_num_threads(blasThreadsPerRank(requested, localRanks));
  return openblas_get_num_threads();
}

Json runWorldSize(const ScaleOptions& opt, int n) {
  // Collective on every launched rank; ranks >= n get no group and go straight to the next size.
  auto group = makeMpiReducer(n);
  if (!group) {
    idleBarrier();  // sleep, not spin, while the first n ranks measure
    return Json();
  }
  GradReducer* g = group.get();

  TrainerSpec spec = opt.trainer;
  const int smallest = *std::min_element(opt.ranks.begin(), opt.ranks.end());
  if (opt.strong) spec.batchPerRank = opt.trainer.batchPerRank * smallest / n;
  const int global = spec.batchPerRank * n;
  StepStats stats;
  std::vector<float> last;
  double checksum = 0;
  for (int rep = 0; rep < opt.reps; ++rep) {
    Trainer t(spec, *g);
    for (int s = 0; s < opt.warmup; ++s) t.step(s);
    g->barrier();
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < opt.steps; ++s) stats.addStep(t.step(opt.warmup + s), *g, n);
    stats.addRep(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), global, opt.steps,
                 t.lastEvents(), spec.model.depth, *g);
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
    row = stats.rowFields();
    row.update(Json{{"ranks", n},
                    {"batch_per_rank", spec.batchPerRank},
                    {"global_batch", global},
                    {"reps", opt.reps},
                    {"steps", opt.steps},
                    {"checksum", checksum},
                    {"ranks_identical", ranksEqual},
                    {"max_param_diff_vs_single_rank", diff},
                    {"equal_to_single_rank", diff <= opt.equalityTolerance}});
  }
  group.reset();
  idleBarrier();
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
    r["efficiency"] = toJson(efficiency(t, b, r["ranks"].get<int>()));
    r["efficiency_base_ranks"] = n0;
  }
}

}  // namespace pf::scaling

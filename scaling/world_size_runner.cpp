// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "world_size_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "step_stats.hpp"

namespace pf::scaling {
namespace {

double maxAbsDiff(const std::vector<float>& a, const std::vector<float>& b) {
  double diff = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    diff = std::max(diff, static_cast<double>(std::abs(a[i] - b[i])));
  return diff;
}

}  // namespace

Json measureWorldSize(const ScaleOptions& opt, GradReducer& g, ScaleDevice& device) {
  const int n = g.size();
  TrainerSpec spec = opt.trainer;
  const int smallest = *std::min_element(opt.ranks.begin(), opt.ranks.end());
  if (opt.strong) spec.batchPerRank = opt.trainer.batchPerRank * smallest / n;
  const int global = spec.batchPerRank * n;
  StepStats stats;
  std::vector<float> last;
  double checksum = 0;
  for (int rep = 0; rep < opt.reps; ++rep) {
    auto t = device.makeTrainer(spec, g);
    for (int s = 0; s < opt.warmup; ++s) t->step(s);
    g.barrier();
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < opt.steps; ++s) stats.addStep(t->step(opt.warmup + s), g, n);
    stats.addRep(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), global, opt.steps,
                 t->lastEvents(), spec.model.depth, g);
    if (rep == opt.reps - 1) {
      last = t->params();
      checksum = t->checksum();
    }
  }
  // Every rank must hold the same parameters: the max and min of the checksums must agree.
  const bool ranksEqual = g.allMax(checksum) == -g.allMax(-checksum);
  if (g.rank() != 0) return Json();

  TrainerSpec ref = spec;
  ref.batchPerRank = global;
  const int trained = opt.warmup + opt.steps;
  std::vector<float> single;
  {
    // Scoped: a device trainer's memory is freed before extraFields() trains anything else.
    auto solo = makeSoloReducer();
    auto one = device.makeTrainer(ref, *solo);
    for (int s = 0; s < trained; ++s) one->step(s);
    single = one->params();
  }
  const double diff = maxAbsDiff(last, single);
  Json row = stats.rowFields();
  row.update(Json{{"ranks", n},
                  {"batch_per_rank", spec.batchPerRank},
                  {"global_batch", global},
                  {"reps", opt.reps},
                  {"steps", opt.steps},
                  {"checksum", checksum},
                  {"ranks_identical", ranksEqual},
                  {"max_param_diff_vs_single_rank", diff},
                  {"equal_to_single_rank", diff <= opt.equalityTolerance},
                  {"device", device.name()}});
  row.update(device.extraFields(ref, trained, single));
  return row;
}

Json runWorldSizeOn(const ScaleOptions& opt, int n, const MakeScaleDevice& makeDevice) {
  // Collective on every launched rank; ranks >= n get no group and go straight to the closing barrier.
  auto group = makeMpiReducer(n);
  Json row;
  if (group) {
    auto device = makeDevice(*group);
    row = measureWorldSize(opt, *group, *device);
    // The device (a CUDA trainer's NCCL communicator) goes before the group it was made for.
    device.reset();
    group.reset();
  }
  idleBarrier();  // sleep, not spin, while the first n ranks measure and rank 0 trains the reference
  return row;
}

}  // namespace pf::scaling

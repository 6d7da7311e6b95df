// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "world_size_runner.hpp"

#include <fmt/format.h>

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

double equalityBound(double roundingDiff, const std::vector<float>& params, const ScaleOptions& opt) {
  // A floor for computations whose two orders happen to agree exactly (one sample per batch, a tiny model):
  // 4 x float32's relative precision (2^-23) of the largest parameter (at least 1) per step trained.
  double largest = 0;
  for (float p : params) largest = std::max(largest, static_cast<double>(std::abs(p)));
  const double ulp = std::ldexp(std::max(largest, 1.0), -23);
  const double floor = 4 * ulp * (opt.warmup + opt.steps);
  return std::max(floor, opt.equalityFactor * roundingDiff);
}

namespace {
int batchPerRankAt(const ScaleOptions& opt, int n) {
  const int smallest = *std::min_element(opt.ranks.begin(), opt.ranks.end());
  return opt.strong ? opt.trainer.batchPerRank * smallest / n : opt.trainer.batchPerRank;
}
}  // namespace

double worldSizeWork(const ScaleOptions& opt, int n) {
  const double trained = opt.warmup + opt.steps, batch = batchPerRankAt(opt, n);
  return opt.reps * trained * batch + 2 * trained * batch * n;
}

Json measureWorldSize(const ScaleOptions& opt, GradReducer& g, ScaleDevice& device) {
  const int n = g.size();
  TrainerSpec spec = opt.trainer;
  spec.batchPerRank = batchPerRankAt(opt, n);
  const int global = spec.batchPerRank * n;
  const double trainedSamples = static_cast<double>(opt.warmup + opt.steps) * spec.batchPerRank;
  auto report = [&](const std::string& what, double work) {
    if (opt.onWork && g.rank() == 0) opt.onWork(fmt::format("world size {}: {}", n, what), work);
  };
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
    report(fmt::format("repetition {}/{}", rep + 1, opt.reps), trainedSamples);
  }
  // Every rank must hold the same parameters: the max and min of the checksums must agree.
  const bool ranksEqual = g.allMax(checksum) == -g.allMax(-checksum);
  if (g.rank() != 0) return Json();

  TrainerSpec ref = spec;
  ref.batchPerRank = global;
  ref.plant = {};  // the reference is the error-free computation
  const int trained = opt.warmup + opt.steps;
  auto train = [&](const TrainerSpec& s) {
    // Scoped: a device trainer's memory is freed before the next one (and extraFields()) trains.
    auto solo = makeSoloReducer();
    auto one = device.makeTrainer(s, *solo);
    for (int step = 0; step < trained; ++step) one->step(step);
    return one->params();
  };
  const std::vector<float> single = train(ref);
  report("single-rank reference 1/2", trainedSamples * n);
  // How far float32 rounding alone moves this computation: the same reference with every batch summed in the
  // opposite order. The data-parallel run sums in yet another order (per rank, then across ranks), so a correct
  // run lands within a small multiple of this; a wrong gradient lands far outside it.
  TrainerSpec reordered = ref;
  reordered.reversedSamples = true;
  const double noise = maxAbsDiff(single, train(reordered));
  report("single-rank reference 2/2", trainedSamples * n);
  const double bound = equalityBound(noise, single, opt);
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
                  {"reference_rounding_diff", noise},
                  {"equality_bound", bound},
                  {"equal_to_single_rank", diff <= bound},
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

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "trainer.hpp"

#include <chrono>

namespace pf::scaling {
namespace {
double nowUs() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

Trainer::Trainer(const TrainerSpec& spec, GradReducer& group)
    : spec_(spec),
      group_(group),
      model_(spec.model),
      opt_(spec.optimizer, spec.model.paramCount()),
      buckets_(makeBuckets(model_.slots(), spec.bucketCapBytes)) {}

StepTiming Trainer::step(long long step) {
  StepTiming t;
  const int n = group_.size();
  const int depth = spec_.model.depth;
  syntheticBatch(spec_.model, step, spec_.batchPerRank * n, group_.rank(), n, x_, y_, spec_.reversedSamples);
  bool plant = spec_.plant.rank == group_.rank() && spec_.plant.step == step && !buckets_.empty();
  const double t0 = nowUs();
  double pollUs = 0;
  t.loss = model_.forward(x_.data(), y_.data(), spec_.batchPerRank);

  events_.assign(buckets_.size(), BucketEvent{});
  std::vector<int> handles(buckets_.size(), -1);
  std::vector<double> startUs(buckets_.size(), 0), doneUs(buckets_.size(), 0);
  std::size_t next = 0;  // buckets become ready in order, since they follow backward's order
  int layersDone = 0;
  auto poll = [&](double now) {
    for (std::size_t b = 0; b < next; ++b)
      if (events_[b].completedAfterLayers < 0 && group_.test(handles[b])) {
        events_[b].completedAfterLayers = layersDone;
        doneUs[b] = now;
      }
  };
  model_.backward([&](int layer) {
    const double p0 = nowUs();
    ++layersDone;
    poll(p0);     // progress earlier buckets first: MPI moves non-blocking collectives only inside MPI calls
    if (plant) {  // before the first bucket leaves this rank: every rank then averages the wrong gradient
      model_.grads()[buckets_[0].offset] += spec_.plant.delta;
      plant = false;
    }
    // Buckets completed by the last layer (layer 0) have nothing left to overlap: they are reduced after
    // backward with the blocking all-reduce (below).
    while (layer > 0 && next < buckets_.size() && buckets_[next].readyAfterLayer >= layer) {
      auto& b = buckets_[next];
      startUs[next] = nowUs();
      handles[next] = group_.start(model_.grads().data() + b.offset, b.count);
      events_[next].startedAfterLayers = layersDone;
      ++next;
    }
    pollUs += nowUs() - p0;
  });
  const double backEnd = nowUs();
  t.computeUs = backEnd - t0 - pollUs;
  for (std::size_t b = 0; b < next; ++b)
    if (events_[b].completedAfterLayers < 0) {
      group_.wait(handles[b]);
      events_[b].completedAfterLayers = depth;
      doneUs[b] = nowUs();
    }
  for (std::size_t b = next; b < buckets_.size(); ++b) {  // in bucket order on every rank, after the started ones
    startUs[b] = nowUs();
    group_.reduceNow(model_.grads().data() + buckets_[b].offset, buckets_[b].count);
    events_[b] = BucketEvent{depth, depth};
    doneUs[b] = nowUs();
  }
  const double commEnd = nowUs();
  t.exposedUs = commEnd - backEnd;
  // Union of [start, done] intervals: they are ordered by start.
  double covered = 0, curS = -1, curE = -1;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    if (startUs[b] > curE) {
      if (curE > curS) covered += curE - curS;
      curS = startUs[b];
      curE = doneUs[b];
    } else if (doneUs[b] > curE) {
      curE = doneUs[b];
    }
  }
  if (curE > curS) covered += curE - curS;
  t.commUs = n > 1 ? covered : 0.0;
  // Averaging (x 1/N) is folded into the optimizer step at every group size, 1 included (x 1.0f is exact): the
  // 1-rank step does the same memory passes as the N-rank one, and its "rest of step" predicts theirs.
  const double r0 = nowUs();
  opt_.step(model_.slots(), model_.params(), model_.grads(), 1.0f / static_cast<float>(n));
  const double r1 = nowUs();
  t.restUs = r1 - r0;
  t.stepUs = r1 - t0;
  return t;
}

}  // namespace pf::scaling

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "comm_volume.hpp"

namespace pf::scaling {

namespace {

CollectiveVolume volumeOf(const char* coll, const char* phase, const char* what, double s, int n) {
  const double f = n > 1 ? (n - 1.0) / n : 0.0;
  return {coll, phase, what, s, n, (std::string(coll) == "all_reduce" ? 2.0 : 1.0) * f * s};
}

}  // namespace

std::vector<CollectiveVolume> stepVolumes(const Workload& w, int dpRanks) {
  const double psi = w.gradientBytesTotal() / w.tensorParallel;
  std::vector<CollectiveVolume> v;
  switch (w.parallelism) {
    case Parallelism::kDdp:
    case Parallelism::kZero1: v.push_back(volumeOf("all_reduce", "backward", "gradients", psi, dpRanks)); break;
    case Parallelism::kZero2:
      v.push_back(volumeOf("reduce_scatter", "backward", "gradients", psi, dpRanks));
      v.push_back(volumeOf("all_gather", "after_step", "parameters", psi, dpRanks));
      break;
    case Parallelism::kFsdp:
      v.push_back(volumeOf("all_gather", "forward", "parameters", psi, dpRanks));
      v.push_back(volumeOf("all_gather", "backward", "parameters", psi, dpRanks));
      v.push_back(volumeOf("reduce_scatter", "backward", "gradients", psi, dpRanks));
      break;
  }
  if (w.tensorParallel > 1) {
    const double s = 4.0 * *w.layers * w.samplesPerGpu * *w.sequenceLength * *w.hiddenSize * w.gradientBytes;
    v.push_back(volumeOf("all_reduce", "tensor_parallel", "activations", s, w.tensorParallel));
  }
  return v;
}

double dataParallelWireBytes(const std::vector<CollectiveVolume>& v) {
  double sum = 0;
  for (const CollectiveVolume& c : v)
    if (c.phase != "tensor_parallel") sum += c.wireBytes;
  return sum;
}

}  // namespace pf::scaling

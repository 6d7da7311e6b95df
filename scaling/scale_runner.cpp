// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "scale_runner.hpp"

#include <algorithm>
#include <thread>

#include "blas_loader.hpp"
#include "cpu_device.hpp"
#include "efficiency.hpp"
#include "world_size_runner.hpp"

namespace pf::scaling {

int blasThreadsPerRank(int requested, int ranksOnNode) {
  if (requested > 0) return requested;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / std::max(1, ranksOnNode));
}

int useBlasThreads(int requested, int localRanks) {
  openblas().setThreads(blasThreadsPerRank(requested, localRanks));
  return openblas().threads();
}

Json runWorldSize(const ScaleOptions& opt, int n) {
  return runWorldSizeOn(opt, n, [](GradReducer&) { return makeCpuDevice(); });
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

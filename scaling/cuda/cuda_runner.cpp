// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// runWorldSize() with the CUDA trainer. The scalar reductions (timings, checksums) go through the same MPI
// sub-group as the CPU runner (makeMpiReducer), the gradients through an NCCL communicator over the first n
// ranks, created from a unique id that rank 0 broadcasts over the launch's bootstrap.
#include "cuda_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "cuda/cuda_trainer.hpp"
#include "efficiency.hpp"
#include "nccl/nccl_check.hpp"
#include "pf/cuda_check.hpp"
#include "reducer.hpp"
#include "step_stats.hpp"

namespace pf::scaling {
namespace {

struct NcclComm {  // owns the communicator; destroyed on every path out
  ncclComm_t comm = nullptr;
  ~NcclComm() {
    if (comm) ncclCommDestroy(comm);
  }
};

}  // namespace

int requireCudaDevice() {
  int count = 0;
  const cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess || count == 0)
    throw UsageError(fmt::format("no CUDA device: none is visible on {} (cudaGetDeviceCount: {}); use --device cpu",
                                 hostName(), rc == cudaSuccess ? "0 devices" : cudaGetErrorString(rc)));
  return count;
}

Json runCudaWorldSize(const ScaleOptions& opt, int n, Bootstrap& boot, int localRank) {
  const int devices = requireCudaDevice();
  // Collective on every launched rank: the NCCL id first (all ranks of boot), then the MPI sub-group.
  ncclUniqueId id{};
  if (n > 1) id = shareNcclUniqueId(boot);
  auto group = makeMpiReducer(n);
  if (!group) return Json();
  GradReducer* g = group.get();
  PF_CUDA_CHECK(cudaSetDevice(localRank % devices));
  NcclComm nccl;
  if (n > 1) PF_NCCL_CHECK(ncclCommInitRank(&nccl.comm, n, id, g->rank()));

  TrainerSpec spec = opt.trainer;
  const int smallest = *std::min_element(opt.ranks.begin(), opt.ranks.end());
  if (opt.strong) spec.batchPerRank = opt.trainer.batchPerRank * smallest / n;
  const int global = spec.batchPerRank * n;
  StepStats stats;
  std::vector<float> last;
  double checksum = 0;
  for (int rep = 0; rep < opt.reps; ++rep) {
    CudaTrainer t(spec, g->rank(), n, nccl.comm);
    for (int s = 0; s < opt.warmup; ++s) t.step(s);
    g->barrier();
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < opt.steps; ++s) stats.addStep(t.step(opt.warmup + s), *g, n);  // returns when the GPU is done
    stats.addRep(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), global, opt.steps,
                 t.lastEvents(), spec.model.depth, *g);
    if (rep == opt.reps - 1) {
      last = t.params();
      checksum = t.checksum();
    }
  }
  const bool ranksEqual = g->allMax(checksum) == -g->allMax(-checksum);
  if (g->rank() != 0) return Json();

  TrainerSpec ref = spec;
  ref.batchPerRank = global;
  std::vector<float> single;
  {
    CudaTrainer one(ref, 0, 1, nullptr);
    for (int s = 0; s < opt.warmup + opt.steps; ++s) one.step(s);
    single = one.params();
  }
  auto solo = makeSoloReducer();
  Trainer cpu(ref, *solo);
  for (int s = 0; s < opt.warmup + opt.steps; ++s) cpu.step(s);
  double diff = 0, diffCpu = 0;
  for (std::size_t i = 0; i < last.size(); ++i) {
    diff = std::max(diff, static_cast<double>(std::abs(last[i] - single[i])));
    diffCpu = std::max(diffCpu, static_cast<double>(std::abs(single[i] - cpu.model().params()[i])));
  }
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
                  {"device", "cuda"},
                  {"max_param_diff_vs_cpu", diffCpu}});
  return row;
}

}  // namespace pf::scaling

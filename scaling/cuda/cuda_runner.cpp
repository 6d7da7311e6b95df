// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The CUDA trainer as a ScaleDevice for the shared world-size loop (world_size_runner.hpp). The scalar
// reductions (timings, checksums) go through the same MPI sub-group as on the CPU (makeMpiReducer), the
// gradients through an NCCL communicator over the first n ranks, created from a unique id that rank 0
// broadcasts over the launch's bootstrap.
#include "cuda_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>

#include "cuda/cuda_trainer.hpp"
#include "nccl/nccl_check.hpp"
#include "pf/cuda_check.hpp"
#include "reducer.hpp"
#include "world_size_runner.hpp"

namespace pf::scaling {
namespace {

class CudaScaleTrainer final : public ScaleTrainer {
 public:
  CudaScaleTrainer(const TrainerSpec& spec, int rank, int ranks, NcclComm* comm) : t_(spec, rank, ranks, comm) {}
  StepTiming step(long long step) override { return t_.step(step); }  // returns when the GPU is done
  const std::vector<BucketEvent>& lastEvents() const override { return t_.lastEvents(); }
  std::vector<float> params() override { return t_.params(); }
  double checksum() override { return t_.checksum(); }

 private:
  CudaTrainer t_;
};

// The CUDA trainers of one world size; owns the group's NCCL communicator (none for a single rank).
class CudaDevice final : public ScaleDevice {
 public:
  /// Joins the NCCL communicator of the `n` ranks (collective over them) when n > 1.
  CudaDevice(int n, const ncclUniqueId& id, int rank) {
    if (n > 1) comm_.init(n, id, rank);
  }
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;
  std::string name() const override { return "cuda"; }
  std::unique_ptr<ScaleTrainer> makeTrainer(const TrainerSpec& spec, GradReducer& group) override {
    // A group of one (the single-rank reference, or N = 1) trains without NCCL.
    return std::make_unique<CudaScaleTrainer>(spec, group.rank(), group.size(), group.size() > 1 ? &comm_ : nullptr);
  }
  // The CUDA reference against the CPU trainer on the same batch and steps (informational).
  Json extraFields(const TrainerSpec& reference, int steps, const std::vector<float>& referenceParams) override {
    auto solo = makeSoloReducer();
    Trainer cpu(reference, *solo);
    for (int s = 0; s < steps; ++s) cpu.step(s);
    double diff = 0;
    for (std::size_t i = 0; i < referenceParams.size(); ++i)
      diff = std::max(diff, static_cast<double>(std::abs(referenceParams[i] - cpu.model().params()[i])));
    return Json{{"max_param_diff_vs_cpu", diff}};
  }

 private:
  NcclComm comm_;  // destroyed after the trainers it lends itself to (runWorldSizeOn ends them first)
};

}  // namespace

int requireCudaDevice() {
  int count = 0;
  if (std::string why = noUsableCudaDevice(count); !why.empty())
    throw UsageError(fmt::format("no CUDA device: none is usable on {} ({}); use --device cpu", hostName(), why));
  return count;
}

Json runCudaWorldSize(const ScaleOptions& opt, int n, Bootstrap& boot, int localRank) {
  // The ranks agreed at the start that each has a GPU (scale_command.cpp); one that has lost it since fails at run
  // time, which takes every rank down (cli/launch.cpp), where a usage error on one rank would leave the others
  // waiting in the next collective.
  int devices = 0;
  try {
    devices = requireCudaDevice();
  } catch (const UsageError& e) {
    throw CudaError(fmt::format("the GPU went away during the run: {}", e.what()));
  }
  // Collective on every launched rank, before the group exists: the NCCL id for the first n ranks.
  ncclUniqueId id{};
  if (n > 1) id = shareNcclUniqueId(boot);
  return runWorldSizeOn(opt, n, [&](GradReducer& group) {
    PF_CUDA_CHECK(cudaSetDevice(localRank % devices));
    return std::make_unique<CudaDevice>(n, id, group.rank());
  });
}

}  // namespace pf::scaling

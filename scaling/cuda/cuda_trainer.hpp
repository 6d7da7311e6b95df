// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The data-parallel trainer on a GPU: the CPU trainer's model (scaling/model.hpp: same ModelSpec, same
// initialisation, same synthetic data sharded by rank, same optimizers), with forward and backward through
// cuBLAS SGEMM on a compute stream and the gradient buckets (buckets.hpp, reverse layer order) all-reduced by
// NCCL (ncclAvg) on a second stream. A bucket's all-reduce is enqueued as soon as backward has produced its
// last gradient: an event recorded on the compute stream after that layer orders it, so communication
// overlaps the remaining layers; after backward the compute stream waits for the last all-reduce, then the
// optimizer runs.
//
// Timing per step from CUDA events (GPU time, not host time): step = forward start to optimizer end;
// compute = forward + backward; exposed = the compute stream's wait for communication after backward;
// comm = the union of the buckets' [all-reduce start, end] intervals. A bucket "completed during backward"
// when its all-reduce ended before the last backward layer did.
//
// Only CUDA-enabled builds compile this header (it includes the CUDA and NCCL headers).
#pragma once

#include <nccl.h>

#include <memory>
#include <vector>

#include "buckets.hpp"
#include "trainer.hpp"

namespace pf {
class NcclComm;  // collectives/nccl/nccl_check.hpp
}

namespace pf::scaling {

class CudaTrainer {
 public:
  /// Uses the current CUDA device. `comm` is the data-parallel group (rank `rank` of `ranks`); nullptr for a
  /// single rank without NCCL (then no all-reduce is issued). The communicator is borrowed, not owned; a failed
  /// wait for the step aborts it (waitNcclStream) before the error leaves.
  CudaTrainer(const TrainerSpec& spec, int rank, int ranks, NcclComm* comm);
  ~CudaTrainer();
  CudaTrainer(const CudaTrainer&) = delete;
  CudaTrainer& operator=(const CudaTrainer&) = delete;

  /// One training step on global step index `step`; blocks until the step is done on the GPU.
  StepTiming step(long long step);
  const std::vector<Bucket>& buckets() const;
  /// The last step's bucket events, in bucket order (as Trainer::lastEvents()).
  const std::vector<BucketEvent>& lastEvents() const;
  /// The parameters copied to the host, forward layout (as Mlp::params()).
  std::vector<float> params() const;
  /// Mlp::checksum() of params().
  double checksum() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pf::scaling

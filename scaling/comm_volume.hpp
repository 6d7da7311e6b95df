// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The collectives one training step issues, per GPU, in closed form. Psi is the gradient (and parameter) bytes
// one GPU holds: parameters x gradient_bytes / tensor_parallel. Over n data-parallel ranks, with the ring's
// factors (each rank sends (n-1)/n S for a reduce-scatter or all-gather of S bytes, twice that for an
// all-reduce; NCCL's PERFORMANCE.md):
//   DDP, ZeRO-1: all-reduce of the gradients                         2(n-1)/n Psi
//   ZeRO-2:      reduce-scatter of the gradients + all-gather of the updated parameters
//                                                                    2(n-1)/n Psi
//   FSDP/ZeRO-3: all-gather of the parameters in forward, again in backward, reduce-scatter of the gradients
//                                                                    3(n-1)/n Psi (1.5x DDP)
// (Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", section 7:
// P_os and P_os+g move 2 Psi like data parallelism, P_os+g+p 3 Psi; Zhao et al. 2023, "PyTorch FSDP:
// Experiences on Scaling Fully Sharded Data Parallel", section 3: all-gather before forward and backward of
// each unit, reduce-scatter after its backward.) Parameters are gathered in the gradients' data type (bf16
// mixed precision gathers bf16 parameters).
// Tensor parallelism (Shoeybi et al. 2019, "Megatron-LM", section 3): each transformer layer all-reduces its
// activations twice in forward and twice in backward among the tp GPUs of a node, S = samples x
// sequence_length x hidden_size x gradient_bytes each, on the critical path (not overlapped); the
// data-parallel gradient per GPU shrinks by tp.
#pragma once

#include <string>
#include <vector>

#include "workload.hpp"

namespace pf::scaling {

struct CollectiveVolume {
  std::string collective;  ///< "all_reduce", "reduce_scatter", "all_gather"
  std::string phase;       ///< "forward", "backward", "after_step" (ZeRO-2's all-gather), "tensor_parallel"
  std::string what;        ///< "gradients", "parameters", "activations"
  double bufferBytes = 0;  ///< S: the whole buffer the collective produces or reduces, per step
  int ranks = 1;           ///< the group it runs over
  double wireBytes = 0;    ///< what each GPU sends per step over the ring: factor x S
};

/// The step's collectives for `dpRanks` data-parallel ranks (each tensor_parallel GPUs).
std::vector<CollectiveVolume> stepVolumes(const Workload& w, int dpRanks);

/// The bytes each GPU sends per step for data parallelism alone (the sum over the non-tensor-parallel ones).
double dataParallelWireBytes(const std::vector<CollectiveVolume>& v);

}  // namespace pf::scaling

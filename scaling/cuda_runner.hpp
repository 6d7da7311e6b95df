// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight scale --device cuda`: one world size measured with the CUDA trainer (cuda/cuda_trainer.hpp).
// Declared without CUDA types so the CLI includes it in every build. `preflight` links cuda_runner_proxy.cpp,
// which calls cuda/cuda_runner.cpp inside preflight-gpu.so; builds without CUDA and NCCL link no_cuda_runner.cpp,
// where both functions throw pf::UsageError("... built without CUDA ...").
#pragma once

#include "pf/bootstrap.hpp"
#include "pf/result.hpp"
#include "scale_runner.hpp"

namespace pf::scaling {

/// Number of visible CUDA devices; throws pf::UsageError("no CUDA device: ...") when there is none (or the
/// driver cannot be reached), so the command exits 2 with an honest reason.
int requireCudaDevice();

/// runWorldSize() on GPUs: the same loop and row (world_size_runner.hpp, docs/scale.md), with "device": "cuda".
/// Collective over every rank of `boot` (rank 0 creates the NCCL id for the first n ranks); rank r uses GPU
/// localRank % devices. The single-rank reference is the CUDA trainer on the whole global batch;
/// `max_param_diff_vs_cpu` compares the final parameters with the CPU trainer's (rank 0, informational).
Json runCudaWorldSize(const ScaleOptions& opt, int n, Bootstrap& boot, int localRank);

}  // namespace pf::scaling

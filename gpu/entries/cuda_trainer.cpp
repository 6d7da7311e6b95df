// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The CUDA trainer's entries (part pf_scaling_cuda, present only where `preflight scale` is: with OpenBLAS;
// gpu/entry.hpp).
#include "gpu/entry.hpp"
#include "scaling/cuda_runner.hpp"

PF_GPU_ENTRY(pf_gpu_require_cuda_device, pf::scaling::requireCudaDevice);
PF_GPU_ENTRY(pf_gpu_cuda_world_size, pf::scaling::runCudaWorldSize);

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `scale --device cuda` in `preflight`: the CUDA trainer is in preflight-gpu.so (cuda/cuda_runner.cpp). Where the
// module cannot load, --device cuda cannot run here: a usage error (exit 2) with the reason, as for "no device".
#include "cuda_runner.hpp"
#include "pf/error.hpp"
#include "pf/gpu_module.hpp"

namespace pf::scaling {

int requireCudaDevice() {
  if (std::string why = gpu::unavailableReason(); !why.empty()) throw UsageError("--device cuda: " + why);
  return gpu::entry<decltype(&requireCudaDevice)>(gpu::entries::kRequireCudaDevice)();
}

Json runCudaWorldSize(const ScaleOptions& opt, int n, Bootstrap& boot, int localRank) {
  return gpu::entry<decltype(&runCudaWorldSize)>(gpu::entries::kCudaWorldSize)(opt, n, boot, localRank);
}

}  // namespace pf::scaling

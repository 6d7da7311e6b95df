// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The per-element arithmetic of the CUDA trainer's kernels (cuda_kernels.cu), compiled for the device there and
// for the host by the modelled runtime's kernels (tests/unit/gpu/modelled_kernels.cpp), so the test without a GPU
// runs the same expressions. They mirror scaling/model.cpp and optimizer.cpp expression by expression (no
// fast-math: IEEE division and sqrt), so the GPU parameters match the CPU ones to float rounding of the GEMM sums.
#pragma once

#include <math.h>

#if defined(__CUDACC__)
#define PF_HOST_DEVICE __host__ __device__
#else
#define PF_HOST_DEVICE
#endif

namespace pf::scaling::cuda::math {

/// z + b, then ReLU when `relu`.
PF_HOST_DEVICE inline float biasActivation(float z, float b, bool relu) {
  const float v = z + b;
  return relu ? (v > 0.0f ? v : 0.0f) : v;
}

/// m = mu*m + g; p -= lr*m (torch.optim.SGD with momentum).
PF_HOST_DEVICE inline void sgd(float& p, float g, float& m, float lr, float mu) {
  m = mu * m + g;
  p -= lr * m;
}

/// Adam (Kingma & Ba, Algorithm 1) with the bias corrections c1 = 1-beta1^t, c2 = 1-beta2^t.
PF_HOST_DEVICE inline void adam(float& p, float g, float& m, float& v, float lr, float b1, float b2, float eps,
                                float c1, float c2) {
  m = b1 * m + (1 - b1) * g;
  v = b2 * v + (1 - b2) * g * g;
  p -= lr * (m / c1) / (sqrtf(v / c2) + eps);
}

}  // namespace pf::scaling::cuda::math

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The CUDA trainer's element-wise kernels (cuda_kernels.cu), as host launchers on a stream. Layouts follow
// the CPU model (scaling/model.hpp): activations row-major [batch x features], which cuBLAS sees as
// column-major [features x batch]; gradients in the reverse flat layout, optimizer state in forward layout.
// Every launcher checks the launch (cudaGetLastError) and throws pf::CudaError.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace pf::scaling::cuda {

/// z[r*out + o] += b[o]; then ReLU when `relu`.
void addBiasActivation(float* z, const float* b, int batch, int out, bool relu, cudaStream_t s);
/// d[i] = (o[i] - y[i]) / batch; atomically adds 0.5 * sum (o - y)^2 / batch to *loss (a device double).
void mseGrad(const float* o, const float* y, float* d, std::size_t n, int batch, double* loss, cudaStream_t s);
/// d[i] = 0 where the post-ReLU activation a[i] <= 0.
void reluMask(float* d, const float* a, std::size_t n, cudaStream_t s);
/// db[j] = sum over r of d[r*out + j].
void biasGrad(const float* d, float* db, int batch, int out, cudaStream_t s);
/// m = mu*m + g; p -= lr*m (torch.optim.SGD with momentum).
void sgdMomentum(float* p, const float* g, float* m, std::size_t n, float lr, float mu, cudaStream_t s);
/// Adam (Kingma & Ba, Algorithm 1) with the bias corrections c1 = 1-beta1^t, c2 = 1-beta2^t.
void adam(float* p, const float* g, float* m, float* v, std::size_t n, float lr, float beta1, float beta2, float eps,
          float c1, float c2, cudaStream_t s);

}  // namespace pf::scaling::cuda

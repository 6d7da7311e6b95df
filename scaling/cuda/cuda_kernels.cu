// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Element-wise kernels of the CUDA trainer. The arithmetic mirrors scaling/model.cpp and optimizer.cpp
// expression by expression (no fast-math: IEEE division and sqrt), so the GPU parameters match the CPU
// ones to float rounding of the GEMM sums; the per-element steps shared with the host are in kernel_math.hpp.
#include <algorithm>

#include "cuda_kernels.hpp"
#include "kernel_math.hpp"
#include "pf/cuda_check.hpp"

namespace pf::scaling::cuda {
namespace {

constexpr int kThreads = 256;

unsigned blocksFor(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>((n + kThreads - 1) / kThreads, 65535u * 8u));
}

__global__ void addBiasActivationKernel(float* z, const float* b, std::size_t n, int out, bool relu) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    z[i] = math::biasActivation(z[i], b[i % out], relu);
  }
}

__global__ void mseGradKernel(const float* o, const float* y, float* d, std::size_t n, int batch, double* loss) {
  __shared__ double part[kThreads];
  double acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float diff = o[i] - y[i];
    d[i] = diff / static_cast<float>(batch);
    acc += 0.5 * double(diff) * double(diff);
  }
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(loss, part[0] / batch);
}

__global__ void reluMaskKernel(float* d, const float* a, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    if (a[i] <= 0.0f) d[i] = 0.0f;
}

// One thread per output feature, summing rows in order as the CPU does (same rounding for small batches).
__global__ void biasGradKernel(const float* d, float* db, int batch, int out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= out) return;
  float s = 0.0f;
  for (int r = 0; r < batch; ++r) s += d[static_cast<std::size_t>(r) * out + j];
  db[j] = s;
}

__global__ void sgdKernel(float* p, const float* g, float* m, std::size_t n, float lr, float mu) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    math::sgd(p[i], g[i], m[i], lr, mu);
  }
}

__global__ void adamKernel(float* p, const float* g, float* m, float* v, std::size_t n, float lr, float b1, float b2,
                           float eps, float c1, float c2) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    math::adam(p[i], g[i], m[i], v[i], lr, b1, b2, eps, c1, c2);
  }
}

}  // namespace

void addBiasActivation(float* z, const float* b, int batch, int out, bool relu, cudaStream_t s) {
  const std::size_t n = static_cast<std::size_t>(batch) * out;
  if (n == 0) return;
  addBiasActivationKernel<<<blocksFor(n), kThreads, 0, s>>>(z, b, n, out, relu);
  PF_CUDA_CHECK(cudaGetLastError());
}

void mseGrad(const float* o, const float* y, float* d, std::size_t n, int batch, double* loss, cudaStream_t s) {
  if (n == 0) return;
  mseGradKernel<<<blocksFor(n), kThreads, 0, s>>>(o, y, d, n, batch, loss);
  PF_CUDA_CHECK(cudaGetLastError());
}

void reluMask(float* d, const float* a, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  reluMaskKernel<<<blocksFor(n), kThreads, 0, s>>>(d, a, n);
  PF_CUDA_CHECK(cudaGetLastError());
}

void biasGrad(const float* d, float* db, int batch, int out, cudaStream_t s) {
  if (out == 0) return;
  biasGradKernel<<<(out + kThreads - 1) / kThreads, kThreads, 0, s>>>(d, db, batch, out);
  PF_CUDA_CHECK(cudaGetLastError());
}

void sgdMomentum(float* p, const float* g, float* m, std::size_t n, float lr, float mu, cudaStream_t s) {
  if (n == 0) return;
  sgdKernel<<<blocksFor(n), kThreads, 0, s>>>(p, g, m, n, lr, mu);
  PF_CUDA_CHECK(cudaGetLastError());
}

void adam(float* p, const float* g, float* m, float* v, std::size_t n, float lr, float beta1, float beta2, float eps,
          float c1, float c2, cudaStream_t s) {
  if (n == 0) return;
  adamKernel<<<blocksFor(n), kThreads, 0, s>>>(p, g, m, v, n, lr, beta1, beta2, eps, c1, c2);
  PF_CUDA_CHECK(cudaGetLastError());
}

}  // namespace pf::scaling::cuda

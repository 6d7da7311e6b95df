// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The CUDA trainer's element-wise kernels (scaling/cuda/cuda_kernels.hpp) for the modelled runtime
// (modelled_runtime.hpp): the loops of cuda_kernels.cu over the same per-element steps (kernel_math.hpp), run on
// the host when the stream runs. They
// let the trainer's host side (buffers, offsets, streams, events, NCCL, error paths) run without a GPU; the
// kernels themselves are checked against the CPU trainer on a GPU (tests/unit/scaling/cuda_trainer_test.cpp).
#include <cstddef>

#include "cuda/cuda_kernels.hpp"
#include "cuda/kernel_math.hpp"
#include "modelled_internal.hpp"

namespace pf::scaling::cuda {

using pf::test::modelled::detail::enqueue;

void addBiasActivation(float* z, const float* b, int batch, int out, bool relu, cudaStream_t s) {
  enqueue(s, [=] {
    for (std::size_t i = 0; i < static_cast<std::size_t>(batch) * out; ++i)
      z[i] = math::biasActivation(z[i], b[i % out], relu);
  });
}

void mseGrad(const float* o, const float* y, float* d, std::size_t n, int batch, double* loss, cudaStream_t s) {
  enqueue(s, [=] {
    double acc = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const float diff = o[i] - y[i];
      d[i] = diff / static_cast<float>(batch);
      acc += 0.5 * double(diff) * double(diff);
    }
    *loss += acc / batch;
  });
}

void reluMask(float* d, const float* a, std::size_t n, cudaStream_t s) {
  enqueue(s, [=] {
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] <= 0.0f) d[i] = 0.0f;
  });
}

void biasGrad(const float* d, float* db, int batch, int out, cudaStream_t s) {
  enqueue(s, [=] {
    for (int j = 0; j < out; ++j) {
      float sum = 0.0f;
      for (int r = 0; r < batch; ++r) sum += d[static_cast<std::size_t>(r) * out + j];
      db[j] = sum;
    }
  });
}

void sgdMomentum(float* p, const float* g, float* m, std::size_t n, float lr, float mu, cudaStream_t s) {
  enqueue(s, [=] {
    for (std::size_t i = 0; i < n; ++i) math::sgd(p[i], g[i], m[i], lr, mu);
  });
}

void adam(float* p, const float* g, float* m, float* v, std::size_t n, float lr, float beta1, float beta2, float eps,
          float c1, float c2, cudaStream_t s) {
  enqueue(s, [=] {
    for (std::size_t i = 0; i < n; ++i) math::adam(p[i], g[i], m[i], v[i], lr, beta1, beta2, eps, c1, c2);
  });
}

}  // namespace pf::scaling::cuda

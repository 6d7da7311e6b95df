// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// cuBLAS for the modelled runtime (modelled_runtime.hpp): the table that scaling/cuda/cublas_loader.hpp gives the
// CUDA trainer, with SGEMM done on the host when the handle's stream runs. It follows cuBLAS's documented
// contract for cublasSgemm: column-major operands, op(A) m x k, op(B) k x n, C m x n with leading dimensions
// lda/ldb/ldc, alpha and beta read from host memory at the call, and C not read when beta is 0 (it may hold
// anything). A transposed or mis-strided product in the trainer gives parameters far from the CPU trainer's.
#include <cublas_v2.h>

#include "cuda/cublas_loader.hpp"
#include "modelled_internal.hpp"

struct cublasContext {
  cudaStream_t stream = nullptr;
};

namespace pf::test::modelled {
namespace {

cublasStatus_t create(cublasHandle_t* h) { return *h = new cublasContext, CUBLAS_STATUS_SUCCESS; }
cublasStatus_t destroy(cublasHandle_t h) { return delete h, CUBLAS_STATUS_SUCCESS; }
cublasStatus_t setStream(cublasHandle_t h, cudaStream_t s) { return h->stream = s, CUBLAS_STATUS_SUCCESS; }
cublasStatus_t setMathMode(cublasHandle_t, cublasMath_t) { return CUBLAS_STATUS_SUCCESS; }

cublasStatus_t sgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                     const float* alpha, const float* A, int lda, const float* B, int ldb, const float* beta, float* C,
                     int ldc) {
  if (m < 0 || n < 0 || k < 0) return CUBLAS_STATUS_INVALID_VALUE;
  const bool transA = ta != CUBLAS_OP_N, transB = tb != CUBLAS_OP_N;
  if (lda < (transA ? k : m) || ldb < (transB ? n : k) || ldc < m) return CUBLAS_STATUS_INVALID_VALUE;
  detail::enqueue(h->stream, [=, a = *alpha, b = *beta] {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        float acc = 0.0f;
        for (int p = 0; p < k; ++p) {
          const float x = transA ? A[p + static_cast<long>(i) * lda] : A[i + static_cast<long>(p) * lda];
          const float y = transB ? B[j + static_cast<long>(p) * ldb] : B[p + static_cast<long>(j) * ldb];
          acc += x * y;
        }
        float& c = C[i + static_cast<long>(j) * ldc];
        c = b == 0.0f ? a * acc : a * acc + b * c;
      }
  });
  return CUBLAS_STATUS_SUCCESS;
}

const char* statusName(cublasStatus_t s) {
  return s == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_INVALID_VALUE";
}
const char* statusString(cublasStatus_t) { return "modelled cuBLAS status"; }

}  // namespace
}  // namespace pf::test::modelled

namespace pf::scaling {

const CublasApi& cublas() {
  namespace m = pf::test::modelled;
  static const CublasApi api{m::create, m::destroy,    m::setStream,   m::setMathMode,
                             m::sgemm,  m::statusName, m::statusString};
  return api;
}

}  // namespace pf::scaling

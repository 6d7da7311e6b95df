// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// PF_CUDA_CHECK / PF_CUDA_WARN: CUDA runtime calls that throw CudaError (or, in cleanup paths, log and
// continue) with the expression, the CUDA error string, file:line and host. Only CUDA-enabled targets see
// this header (the pf_cuda_check interface target exists only when CUDA is found).
#pragma once

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "pf/environment.hpp"
#include "pf/error.hpp"
#include "pf/log.hpp"

#define PF_CUDA_CHECK(expr)                                                                                         \
  do {                                                                                                              \
    cudaError_t pf_cuda_rc = (expr);                                                                                \
    if (pf_cuda_rc != cudaSuccess)                                                                                  \
      throw ::pf::CudaError(fmt::format("{} failed: {} ({}) at {}:{} on {}", #expr, cudaGetErrorString(pf_cuda_rc), \
                                        static_cast<int>(pf_cuda_rc), __FILE__, __LINE__, ::pf::hostName()));       \
  } while (0)

#define PF_CUDA_WARN(expr)                                                                                      \
  do {                                                                                                          \
    cudaError_t pf_cuda_rc = (expr);                                                                            \
    if (pf_cuda_rc != cudaSuccess)                                                                              \
      PF_LOG_WARN("cuda", "{} failed: {} at {}:{}", #expr, cudaGetErrorString(pf_cuda_rc), __FILE__, __LINE__); \
  } while (0)

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// PF_CUBLAS_CHECK: a cuBLAS call that throws pf::CudaError with the expression, cuBLAS's status name and
// string, file:line and host (the cuBLAS counterpart of PF_CUDA_CHECK in core/cuda/pf/cuda_check.hpp). cuBLAS is
// opened at run time (cuda/cublas_loader.hpp), so the names come through the same table as the calls.
#pragma once

#include <cublas_v2.h>
#include <fmt/format.h>

#include "cuda/cublas_loader.hpp"
#include "pf/environment.hpp"
#include "pf/error.hpp"

#define PF_CUBLAS_CHECK(expr)                                                                                       \
  do {                                                                                                              \
    cublasStatus_t pf_cublas_rc = (expr);                                                                           \
    if (pf_cublas_rc != CUBLAS_STATUS_SUCCESS)                                                                      \
      throw ::pf::CudaError(                                                                                        \
          fmt::format("{} failed: {} ({}) at {}:{} on {}", #expr, ::pf::scaling::cublas().statusName(pf_cublas_rc), \
                      ::pf::scaling::cublas().statusString(pf_cublas_rc), __FILE__, __LINE__, ::pf::hostName()));   \
  } while (0)

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// PF_CUDA_CHECK / PF_CUDA_WARN: CUDA runtime calls that throw CudaError (or, in cleanup paths, log and
// continue) with the expression, the CUDA error string, file:line and host. Only CUDA-enabled targets see
// this header (the pf_cuda_check interface target exists only when CUDA is found).
#pragma once

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <string>

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

namespace pf {

/// Why cudaGetDeviceCount() gave no usable GPU, in words that point at the fix; empty when it gave one. The
/// runtime says "CUDA driver version is insufficient for CUDA runtime version" both where no driver is installed
/// and where the driver is older than the CUDA this module was built with, which need different fixes.
inline std::string noCudaDeviceReason(cudaError_t rc, int count) {
  if (rc == cudaSuccess) return count > 0 ? std::string() : "cudaGetDeviceCount() = 0";
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaGetLastError();  // clear the error so later calls start clean
  if (driver == 0) return "no NVIDIA driver (libcuda.so.1 not found)";
  if (rc == cudaErrorInsufficientDriver)
    return fmt::format(
        "the NVIDIA driver supports CUDA up to {}.{}, but this Preflight's GPU module was built with CUDA {}.{}: "
        "upgrade the driver, or build Preflight with a CUDA no newer than the driver's",
        driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
  return fmt::format("cudaGetDeviceCount: {}", cudaGetErrorString(rc));
}

/// cudaGetDeviceCount() into `count`, then noCudaDeviceReason() of it: empty when a GPU is usable. One call, so
/// that `count` is read after the runtime wrote it: in noCudaDeviceReason(cudaGetDeviceCount(&count), count) the
/// order in which the two arguments are evaluated is unspecified, and GCC read `count` first (always 0: every GPU
/// machine refused as having none, found on the modelled runtime, tests/unit/gpu/modelled_runtime.hpp).
inline std::string noUsableCudaDevice(int& count) {
  const cudaError_t rc = cudaGetDeviceCount(&count);
  return noCudaDeviceReason(rc, count);
}

}  // namespace pf

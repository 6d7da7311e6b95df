// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight`'s side of gpu_runtime.hpp: the CUDA runtime and NVML are asked inside preflight-gpu.so
// (gpu_runtime_cuda.cpp, p2p_measure.cpp). A node with no NVIDIA driver is answered here, without opening the
// module: it would load the CUDA runtime and NCCL only to learn the same. Where the module cannot load, its
// reason is the CUDA error, so a node whose sysfs shows GPUs fails the gpu probe with that reason.
#include "gpu_runtime.hpp"
#include "pf/gpu_module.hpp"
#include "pf/shared_library.hpp"

namespace pf::probes {
namespace {

GpuRuntime unanswered(const std::string& why) {
  GpuRuntime g;
  g.cudaError = why;
  g.nvmlError = why;
  return g;
}

GpuRuntime ask() {
  // The CUDA runtime opens the driver's libcuda.so.1 itself; without it there is nothing to ask.
  if (!SharedLibrary("libcuda.so.1").error().empty()) return unanswered("no NVIDIA driver (libcuda.so.1 not found)");
  if (std::string why = gpu::unavailableReason(); !why.empty()) return unanswered(why);
  return gpu::entry<decltype(&queryGpuRuntime)>(gpu::entries::kGpuRuntime)();
}

}  // namespace

const GpuRuntime& queryGpuRuntime() {
  static const GpuRuntime r = ask();
  return r;
}

P2pMeasurement measureP2p(bool measure) {
  if (std::string why = gpu::unavailableReason(); !why.empty()) {
    P2pMeasurement m;
    m.error = why;
    return m;
  }
  return gpu::entry<decltype(&measureP2p)>(gpu::entries::kMeasureP2p)(measure);
}

}  // namespace pf::probes

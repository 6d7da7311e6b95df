// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The CUDA runtime side of gpu_runtime.hpp: device count, names, memory, compute capability, PCI bus ids and the
// driver/runtime versions; NVML fills in ECC, persistence, PCIe link and NVLink (nvml_loader.cpp).
#include <cuda.h>  // CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED and the driver call's signature only
#include <cuda_runtime_api.h>

#include "gpu_runtime.hpp"
#include "nvml_loader.hpp"
#include "pf/cuda_check.hpp"

namespace pf::probes {
namespace {

// CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED: the GPU sits on NVSwitches that can multicast and reduce (NVLink
// SHARP), the test NCCL makes before it builds NVLS channels. The runtime API has no such attribute, so the
// driver's own call is fetched through the runtime (no link to libcuda). nullopt when it cannot be asked.
std::optional<bool> multicastSupported(int device) {
  using GetAttribute = CUresult (*)(int*, CUdevice_attribute, CUdevice);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuDeviceGetAttribute", &fn, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess || !fn)
    return std::nullopt;
  int v = 0;
  if (reinterpret_cast<GetAttribute>(fn)(&v, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, device) != CUDA_SUCCESS)
    return std::nullopt;  // a driver older than the attribute (before CUDA 12.1)
  return v != 0;
}

GpuRuntime ask() {
  GpuRuntime g;
  cudaRuntimeGetVersion(&g.runtimeVersion);
  cudaDriverGetVersion(&g.driverVersion);  // 0 when no driver is installed
  int n = 0;
  cudaError_t rc = cudaGetDeviceCount(&n);
  if (rc != cudaSuccess) {
    g.cudaError = noCudaDeviceReason(rc, n);
  } else {
    g.cudaOk = true;
    for (int i = 0; i < n; ++i) {
      cudaDeviceProp p{};
      if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
      RuntimeGpu d;
      d.index = i;
      d.name = p.name;
      d.memBytes = static_cast<long long>(p.totalGlobalMem);
      d.ccMajor = p.major;
      d.ccMinor = p.minor;
      char bus[32] = {};
      if (cudaDeviceGetPCIBusId(bus, sizeof bus, i) == cudaSuccess) d.pciBusId = normalizeBusId(bus);
      d.multicast = multicastSupported(i);
      g.gpus.push_back(std::move(d));
    }
  }
  g.nvmlOk = fillFromNvml(g, g.nvmlError);
  return g;
}

}  // namespace

const GpuRuntime& queryGpuRuntime() {
  static const GpuRuntime r = ask();
  return r;
}

}  // namespace pf::probes

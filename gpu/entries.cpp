// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What preflight-gpu.so exports. Each entry is a variable holding a function's address, typed from that
// function's declaration (the proxy in `preflight` binds the same decltype), with C linkage so dlsym finds it
// by its name in pf/gpu_module.hpp. The module links with -Bsymbolic: its own definitions of requireCudaDevice,
// queryGpuRuntime and the rest bind inside it, not to the proxies of the same name in the executable.
#include "check/nccl/nccl_pair_engine.hpp"
#include "collectives/nccl/nccl_backend.hpp"
#include "probes/gpu_runtime.hpp"
#include "scaling/cuda_runner.hpp"

#define PF_GPU_ENTRY(symbol, function) \
  extern "C" [[gnu::visibility("default"), gnu::used]] const decltype(&function) symbol = &function

PF_GPU_ENTRY(pf_gpu_nccl_backend, pf::collectives::makeNcclBackend);
PF_GPU_ENTRY(pf_gpu_nccl_pair_engine, pf::check::makeNcclPairEngine);
PF_GPU_ENTRY(pf_gpu_require_cuda_device, pf::scaling::requireCudaDevice);
PF_GPU_ENTRY(pf_gpu_cuda_world_size, pf::scaling::runCudaWorldSize);
PF_GPU_ENTRY(pf_gpu_runtime, pf::probes::queryGpuRuntime);
PF_GPU_ENTRY(pf_gpu_measure_p2p, pf::probes::measureP2p);

/// The build this module belongs to (pf/gpu_module.hpp refuses a module from another one).
extern "C" [[gnu::visibility("default")]] const char* pf_gpu_module_build() { return PF_GPU_MODULE_BUILD; }

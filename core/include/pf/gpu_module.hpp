// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// preflight-gpu.so: everything that calls CUDA or NCCL (the NCCL backend and pair engine, the CUDA trainer, the
// live GPU and P2P queries), built as a module that `preflight` opens the first time one of them is asked for.
// Linked instead, a node without CUDA 13's runtime or NCCL could not start `preflight` at all, not even
// `probe` or `doctor` (issue 15). The module resolves Preflight's own functions from the executable that opens
// it, so such an executable is linked with its symbols exported (pf_loads_gpu_module() in gpu/CMakeLists.txt).
//
// Each feature binds its own entry (named below, exported by gpu/entries/*.cpp); a missing module or library becomes
// one sentence that says which file, which library and what to install.
#pragma once

#include <string>

namespace pf::gpu {

/// The symbols the module exports, one per feature; each feature's proxy in `preflight` binds its own.
namespace entries {
inline constexpr char kNcclBackend[] = "pf_gpu_nccl_backend";               ///< collectives::makeNcclBackend
inline constexpr char kNcclPairEngine[] = "pf_gpu_nccl_pair_engine";        ///< check::makeNcclPairEngine
inline constexpr char kRequireCudaDevice[] = "pf_gpu_require_cuda_device";  ///< scaling::requireCudaDevice
inline constexpr char kCudaWorldSize[] = "pf_gpu_cuda_world_size";          ///< scaling::runCudaWorldSize
inline constexpr char kGpuRuntime[] = "pf_gpu_runtime";                     ///< probes::queryGpuRuntime
inline constexpr char kMeasureP2p[] = "pf_gpu_measure_p2p";                 ///< probes::measureP2p
/// Every entry, for the test that opens the module and binds each one.
inline constexpr const char* kAll[] = {kNcclBackend,   kNcclPairEngine, kRequireCudaDevice,
                                       kCudaWorldSize, kGpuRuntime,     kMeasureP2p};
}  // namespace entries

/// Where the module is looked for: $PREFLIGHT_GPU_MODULE, else lib/preflight/preflight-gpu.so beside the
/// executable's bin/ (the build tree and an installed prefix have the same layout).
std::string modulePath();

/// Why GPU support is unavailable here (the module missing, a library it needs missing, a module from another
/// build), with what to do; empty when the module opened. The module is opened once per process.
std::string unavailableReason();

/// The address of the module's entry point `symbol`; throws pf::RuntimeFailure (exit 3) with
/// unavailableReason() when the module is unusable, or naming the symbol when it lacks it.
void* entryAddress(const char* symbol);

/// The function the module exports under `symbol`. gpu/entries/*.cpp export each as a variable holding the
/// function's address, typed decltype(&function) from the function's own declaration; the caller names the same
/// type, so the two sides cannot disagree: entry<decltype(&makeNcclBackend)>(entries::kNcclBackend)().
template <typename Fn>
Fn entry(const char* symbol) {
  return *static_cast<const Fn*>(entryAddress(symbol));
}

}  // namespace pf::gpu

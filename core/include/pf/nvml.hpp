// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NVML, the GPU driver's management library, opened with dlopen(). It ships with the driver, not with the CUDA
// toolkit: linking it would keep Preflight from starting on a node without a driver, the very node it must report
// on. NVML needs no CUDA context, so asking it costs a GPU nothing. Only the entry points used are declared, with
// the ABI of NVIDIA's nvml.h (NVML API 12): the gpu probe's queries (probes/cuda/nvml_loader.cpp) and the
// compute processes that the check lists as evidence (check/pairs_phase.cpp).
#pragma once

#include <string>
#include <vector>

namespace pf {

// The two types of nvml.h (NVML API 12) every caller needs: a return code and an opaque device handle.
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;

/// One NVML session: dlopen + nvmlInit_v2, and nvmlShutdown + dlclose when it ends.
class NvmlSession {
 public:
  /// Opens `library` and initialises NVML; ok() says whether both worked and error() why not.
  explicit NvmlSession(const std::string& library = "libnvidia-ml.so.1");
  ~NvmlSession();
  NvmlSession(const NvmlSession&) = delete;
  NvmlSession& operator=(const NvmlSession&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  /// The entry point `name`, or nullptr when this NVML lacks it (older drivers lack the newer _vN names).
  template <typename F>
  F sym(const char* name) const {
    return reinterpret_cast<F>(symbol(name));
  }
  /// nvmlErrorString(rc), or the number when the library has no such entry point.
  std::string errorString(int rc) const;

 private:
  void* symbol(const char* name) const;
  void* handle_ = nullptr;
  bool initialised_ = false;
  std::string error_;
};

/// A process with a compute context on one of this node's GPUs.
struct GpuProcess {
  int gpu = 0;               ///< NVML's device index
  int pid = 0;               ///< in the host's pid namespace (NVML's view): a containerised job sees other pids
  long long usedBytes = -1;  ///< device memory it holds; -1 when NVML cannot tell (no permission, MIG)
};

/// Every GPU's compute processes (nvmlDeviceGetComputeRunningProcesses_v3, or _v2 on drivers before r510).
/// Returns false with `error` set when the session is not ok or a query fails.
bool listGpuProcesses(const NvmlSession& nvml, std::vector<GpuProcess>& out, std::string& error);

}  // namespace pf

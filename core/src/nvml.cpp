// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/nvml.hpp"

#include <dlfcn.h>

namespace pf {
namespace {

// The rest of the subset of nvml.h (NVML API 12) used here; the handle types are in pf/nvml.hpp.
constexpr nvmlReturn_t kSuccess = 0;
constexpr nvmlReturn_t kInsufficientSize = 7;  // NVML_ERROR_INSUFFICIENT_SIZE: infoCount now holds what is needed
// nvmlProcessInfo_t as _v2 and _v3 of nvmlDeviceGetComputeRunningProcesses take it (nvmlProcessInfo_v2_t, 24
// bytes). One release's nvml.h showed a fifth field (usedGpuCcProtectedMemory, 32 bytes) that drivers do not
// write there; the buffer keeps room for that layout anyway, so no driver can write past it.
struct ProcessInfo {
  unsigned int pid;
  unsigned long long usedGpuMemory;  // NVML_VALUE_NOT_AVAILABLE (all ones) when unknown
  unsigned int gpuInstanceId, computeInstanceId;
};
constexpr unsigned long long kValueNotAvailable = ~0ULL;

}  // namespace

NvmlSession::NvmlSession(const std::string& library) {
  handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* e = dlerror();
    error_ = "dlopen(" + library + "): " + (e ? e : "not found");
    return;
  }
  auto init = sym<nvmlReturn_t (*)()>("nvmlInit_v2");
  if (!init) {
    error_ = library + " lacks nvmlInit_v2";
    return;
  }
  if (nvmlReturn_t rc = init(); rc != kSuccess) {
    error_ = "nvmlInit: " + errorString(rc);
    return;
  }
  initialised_ = true;
}

NvmlSession::~NvmlSession() {
  if (initialised_)
    if (auto shutdown = sym<nvmlReturn_t (*)()>("nvmlShutdown")) shutdown();
  if (handle_) dlclose(handle_);
}

void* NvmlSession::symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

std::string NvmlSession::errorString(int rc) const {
  auto str = sym<const char* (*)(nvmlReturn_t)>("nvmlErrorString");
  const char* s = str ? str(rc) : nullptr;
  return s ? s : "NVML error " + std::to_string(rc);
}

bool listGpuProcesses(const NvmlSession& nvml, std::vector<GpuProcess>& out, std::string& error) {
  if (!nvml.ok()) {
    error = nvml.error();
    return false;
  }
  using Count = nvmlReturn_t (*)(unsigned*);
  using Handle = nvmlReturn_t (*)(unsigned, nvmlDevice_t*);
  using Processes = nvmlReturn_t (*)(nvmlDevice_t, unsigned*, ProcessInfo*);
  auto count = nvml.sym<Count>("nvmlDeviceGetCount_v2");
  auto handle = nvml.sym<Handle>("nvmlDeviceGetHandleByIndex_v2");
  auto processes = nvml.sym<Processes>("nvmlDeviceGetComputeRunningProcesses_v3");
  if (!processes) processes = nvml.sym<Processes>("nvmlDeviceGetComputeRunningProcesses_v2");
  if (!count || !handle || !processes) {
    error =
        "this NVML lacks nvmlDeviceGetCount_v2, nvmlDeviceGetHandleByIndex_v2 or "
        "nvmlDeviceGetComputeRunningProcesses_v2/_v3";
    return false;
  }
  unsigned gpus = 0;
  if (nvmlReturn_t rc = count(&gpus); rc != kSuccess) {
    error = "nvmlDeviceGetCount: " + nvml.errorString(rc);
    return false;
  }
  for (unsigned g = 0; g < gpus; ++g) {
    nvmlDevice_t d = nullptr;
    if (nvmlReturn_t rc = handle(g, &d); rc != kSuccess) {
      error = "nvmlDeviceGetHandleByIndex(" + std::to_string(g) + "): " + nvml.errorString(rc);
      return false;
    }
    // Processes come and go between the two calls: ask with room to spare, and again while it is too small.
    // Twice the entries that NVML is told of: room for the 32-byte layout above.
    unsigned room = 16, n = room;
    std::vector<ProcessInfo> info(2 * room);
    nvmlReturn_t rc = processes(d, &n, info.data());
    for (int tries = 0; rc == kInsufficientSize && tries < 3; ++tries) {
      room = n + 16;
      n = room;
      info.assign(2 * room, ProcessInfo{});
      rc = processes(d, &n, info.data());
    }
    if (rc != kSuccess) {
      error = "nvmlDeviceGetComputeRunningProcesses(GPU " + std::to_string(g) + "): " + nvml.errorString(rc);
      return false;
    }
    for (unsigned i = 0; i < n && i < room; ++i)
      out.push_back({static_cast<int>(g), static_cast<int>(info[i].pid),
                     info[i].usedGpuMemory == kValueNotAvailable ? -1 : static_cast<long long>(info[i].usedGpuMemory)});
  }
  return true;
}

}  // namespace pf

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A stand-in for libnvidia-ml.so.1 with the entry points pf::NvmlSession and pf::listGpuProcesses call, so the
// dlopen path, the retry on NVML_ERROR_INSUFFICIENT_SIZE and the "memory unknown" value run on a machine without
// a GPU driver. Two GPUs: GPU 0 has 20 compute processes (more than a first call makes room for), GPU 1 one
// whose memory NVML cannot tell. PF_FAKE_NVML_INIT_FAILS=1 makes nvmlInit_v2 fail as it does without a driver.
// The layout is what pf/nvml.hpp declares (nvmlProcessInfo_v2_t); it is not a check of NVIDIA's ABI.
#include <cstdlib>
#include <cstring>

namespace {
struct nvmlDevice_st {
  unsigned index;
};
nvmlDevice_st devices[2] = {{0}, {1}};
struct ProcessInfo {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId, computeInstanceId;
};
}  // namespace

extern "C" {
int nvmlInit_v2() {
  const char* fail = std::getenv("PF_FAKE_NVML_INIT_FAILS");
  return fail && std::strcmp(fail, "1") == 0 ? 9 : 0;  // 9: NVML_ERROR_DRIVER_NOT_LOADED
}
int nvmlShutdown() { return 0; }
const char* nvmlErrorString(int rc) { return rc == 9 ? "Driver Not Loaded" : "Unknown Error"; }
int nvmlDeviceGetCount_v2(unsigned* n) {
  *n = 2;
  return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_st** d) {
  if (i >= 2) return 2;  // NVML_ERROR_INVALID_ARGUMENT
  *d = &devices[i];
  return 0;
}
int nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_st* d, unsigned* count, ProcessInfo* infos) {
  const unsigned have = d->index == 0 ? 20 : 1;
  if (*count < have) {
    *count = have;
    return 7;  // NVML_ERROR_INSUFFICIENT_SIZE
  }
  for (unsigned i = 0; i < have; ++i)
    infos[i] =
        d->index == 0 ? ProcessInfo{1000 + i, (i + 1) * 1048576ULL, ~0U, ~0U} : ProcessInfo{4242, ~0ULL, ~0U, ~0U};
  *count = have;
  return 0;
}
}

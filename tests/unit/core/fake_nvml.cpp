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

// The health queries of probes/cuda/nvml_health.cpp (tests/unit/probes/nvml_health_test.cpp). GPU 0 is unwell:
// 2 pages retired for double-bit errors and one pending, a row remap pending, NVLink 2 (of active links 0 and 2)
// with replay and CRC flit errors, HW slowdown and HW power brake in force, its fabric still being trained. GPU 1
// answers the older names only (nvmlDeviceGetCurrentClocksThrottleReasons, no _V fabric call answers for it) and
// lacks row remapping (NVML_ERROR_NOT_SUPPORTED), as a pre-Ampere GPU does.
namespace {
struct FabricInfoV1 {
  unsigned char clusterUuid[16];
  int status;
  unsigned int cliqueId;
  unsigned char state;
};
struct FabricInfoV2 {
  unsigned int version;
  unsigned char clusterUuid[16];
  int status;
  unsigned int cliqueId;
  unsigned char state;
  unsigned int healthMask;
};
}  // namespace

extern "C" {
int nvmlDeviceGetRetiredPages(nvmlDevice_st* d, int cause, unsigned* count, unsigned long long* addresses) {
  const unsigned have = d->index == 0 && cause == 1 ? 2 : 0;
  if (*count < have) {
    *count = have;
    return 7;  // NVML_ERROR_INSUFFICIENT_SIZE
  }
  for (unsigned i = 0; i < have; ++i) addresses[i] = 0x1000 * (i + 1);
  *count = have;
  return 0;
}
int nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_st* d, int* pending) {
  *pending = d->index == 0 ? 1 : 0;
  return 0;
}
int nvmlDeviceGetRemappedRows(nvmlDevice_st* d, unsigned* corr, unsigned* unc, unsigned* pending, unsigned* failed) {
  if (d->index == 1) return 3;  // NVML_ERROR_NOT_SUPPORTED
  *corr = 1;
  *unc = 3;
  *pending = 1;
  *failed = 0;
  return 0;
}
int nvmlDeviceGetNvLinkState(nvmlDevice_st* d, unsigned link, int* active) {
  if (link >= 18) return 2;
  *active = d->index == 0 && (link == 0 || link == 2) ? 1 : 0;
  return 0;
}
int nvmlDeviceGetNvLinkErrorCounter(nvmlDevice_st*, unsigned link, int counter, unsigned long long* value) {
  // Link 2: replay 5, CRC flit 17; everything else zero.
  *value = link == 2 && counter == 0 ? 5 : link == 2 && counter == 2 ? 17 : 0;
  return 0;
}
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_st* d, unsigned long long* bits) {
  if (d->index == 1) return 3;
  *bits = 0x1 | 0x8 | 0x80;  // GPU idle (no fault), HW slowdown, HW power brake
  return 0;
}
int nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_st*, unsigned long long* bits) {
  *bits = 0x20;  // SW thermal slowdown
  return 0;
}
int nvmlDeviceGetGpuFabricInfoV(nvmlDevice_st* d, FabricInfoV2* info) {
  if (d->index == 1) return 3;
  if (info->version != (sizeof(FabricInfoV2) | (2u << 24))) return 25;  // NVML_ERROR_ARGUMENT_VERSION_MISMATCH
  info->status = 0;
  info->state = 2;  // NVML_GPU_FABRIC_STATE_IN_PROGRESS
  return 0;
}
int nvmlDeviceGetGpuFabricInfo(nvmlDevice_st*, FabricInfoV1* info) {
  info->status = 0;
  info->state = 0;  // NVML_GPU_FABRIC_STATE_NOT_SUPPORTED
  return 0;
}
}

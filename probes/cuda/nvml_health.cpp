// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nvml_health.hpp"

namespace pf::probes {
namespace {

// The subset of nvml.h (NVML API 12) these queries use.
constexpr nvmlReturn_t kHealthSuccess = 0, kHealthInsufficientSize = 7;  // NVML_SUCCESS, NVML_ERROR_INSUFFICIENT_SIZE
constexpr int kCauseMultipleSbe = 0, kCauseDbe = 1;                      // nvmlPageRetirementCause_t
constexpr int kFeatureEnabled = 1;                                       // nvmlEnableState_t NVML_FEATURE_ENABLED
constexpr unsigned kHealthMaxNvLinks = 18;                               // NVML_NVLINK_MAX_LINKS
// nvmlNvLinkErrorCounter_t: NVML_NVLINK_ERROR_DL_REPLAY, _RECOVERY, _CRC_FLIT, _CRC_DATA.
constexpr int kDlReplay = 0, kDlRecovery = 1, kDlCrcFlit = 2, kDlCrcData = 3;
// nvmlGpuFabricInfo_t (nvmlDeviceGetGpuFabricInfo, r525 on) and nvmlGpuFabricInfo_v2_t (nvmlDeviceGetGpuFabricInfoV,
// whose version word is NVML_STRUCT_VERSION(GpuFabricInfo, 2): the size with 2 in the top byte).
using FabricState = unsigned char;  // nvmlGpuFabricState_t
struct FabricInfoV1 {
  unsigned char clusterUuid[16];
  nvmlReturn_t status;
  unsigned int cliqueId;
  FabricState state;
};
struct FabricInfoV2 {
  unsigned int version;
  unsigned char clusterUuid[16];
  nvmlReturn_t status;
  unsigned int cliqueId;
  FabricState state;
  unsigned int healthMask;
};
constexpr unsigned kFabricInfoV2Version = static_cast<unsigned>(sizeof(FabricInfoV2)) | (2u << 24);

using RetiredPages = nvmlReturn_t (*)(nvmlDevice_t, int, unsigned*, unsigned long long*);
using EnableState = nvmlReturn_t (*)(nvmlDevice_t, int*);
using RemappedRows = nvmlReturn_t (*)(nvmlDevice_t, unsigned*, unsigned*, unsigned*, unsigned*);
using LinkState = nvmlReturn_t (*)(nvmlDevice_t, unsigned, int*);
using LinkCounter = nvmlReturn_t (*)(nvmlDevice_t, unsigned, int, unsigned long long*);
using Reasons = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);

// Pages retired for `cause`: asked with no room, NVML answers with the count (INSUFFICIENT_SIZE when nonzero).
std::optional<int> retiredPageCount(RetiredPages f, nvmlDevice_t d, int cause) {
  unsigned n = 0;
  const nvmlReturn_t rc = f(d, cause, &n, nullptr);
  if (rc != kHealthSuccess && rc != kHealthInsufficientSize) return std::nullopt;
  return static_cast<int>(n);
}

void readFabric(const NvmlSession& nvml, nvmlDevice_t d, RuntimeGpu& gpu) {
  if (auto v2 = nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, FabricInfoV2*)>("nvmlDeviceGetGpuFabricInfoV")) {
    FabricInfoV2 info{};
    info.version = kFabricInfoV2Version;
    if (v2(d, &info) == kHealthSuccess) {
      gpu.fabricState = info.state;
      gpu.fabricStatus = info.status;
      return;
    }
  }
  if (auto v1 = nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, FabricInfoV1*)>("nvmlDeviceGetGpuFabricInfo")) {
    FabricInfoV1 info{};
    if (v1(d, &info) == kHealthSuccess) {
      gpu.fabricState = info.state;
      gpu.fabricStatus = info.status;
    }
  }
}

}  // namespace

void readNvmlHealth(const NvmlSession& nvml, nvmlDevice_t d, RuntimeGpu& gpu) {
  if (auto pages = nvml.sym<RetiredPages>("nvmlDeviceGetRetiredPages")) {
    gpu.retiredPagesSbe = retiredPageCount(pages, d, kCauseMultipleSbe);
    gpu.retiredPagesDbe = retiredPageCount(pages, d, kCauseDbe);
  }
  int state = 0;
  if (auto pending = nvml.sym<EnableState>("nvmlDeviceGetRetiredPagesPendingStatus");
      pending && pending(d, &state) == kHealthSuccess)
    gpu.retiredPagesPending = state == kFeatureEnabled;
  unsigned corr = 0, unc = 0, isPending = 0, failed = 0;
  if (auto rows = nvml.sym<RemappedRows>("nvmlDeviceGetRemappedRows");
      rows && rows(d, &corr, &unc, &isPending, &failed) == kHealthSuccess) {
    gpu.remappedRowsCorrectable = static_cast<int>(corr);
    gpu.remappedRowsUncorrectable = static_cast<int>(unc);
    gpu.remapPending = isPending != 0;
    gpu.remapFailed = failed != 0;
  }
  auto linkState = nvml.sym<LinkState>("nvmlDeviceGetNvLinkState");
  auto counter = nvml.sym<LinkCounter>("nvmlDeviceGetNvLinkErrorCounter");
  for (unsigned link = 0; linkState && counter && link < kHealthMaxNvLinks; ++link) {
    int active = 0;
    if (linkState(d, link, &active) != kHealthSuccess || active != 1) continue;
    RuntimeGpu::NvLinkErrors e;
    e.link = static_cast<int>(link);
    unsigned long long v[4] = {};
    bool all = true;
    for (int c : {kDlReplay, kDlRecovery, kDlCrcFlit, kDlCrcData}) all &= counter(d, link, c, &v[c]) == kHealthSuccess;
    if (!all) continue;  // a link whose counters cannot be read is not reported as clean
    e.replay = static_cast<long long>(v[kDlReplay]);
    e.recovery = static_cast<long long>(v[kDlRecovery]);
    e.crcFlit = static_cast<long long>(v[kDlCrcFlit]);
    e.crcData = static_cast<long long>(v[kDlCrcData]);
    gpu.nvlinkErrors.push_back(e);
  }
  // nvmlDeviceGetCurrentClocksEventReasons replaced ...ThrottleReasons (r535); the bits are the same.
  auto reasons = nvml.sym<Reasons>("nvmlDeviceGetCurrentClocksEventReasons");
  if (!reasons) reasons = nvml.sym<Reasons>("nvmlDeviceGetCurrentClocksThrottleReasons");
  unsigned long long bits = 0;
  if (reasons && reasons(d, &bits) == kHealthSuccess) gpu.clocksEvents = bits;
  readFabric(nvml, d, gpu);
}

}  // namespace pf::probes

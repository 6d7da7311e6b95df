// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nvml_loader.hpp"

#include <algorithm>
#include <cctype>

#include "nvml_health.hpp"
#include "pf/nvml.hpp"

namespace pf::probes {
namespace {

// The rest of the subset of nvml.h (NVML API 12) used here; the handle types are in pf/nvml.hpp.
struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};
constexpr int kNvmlSuccess = 0;
constexpr int kEccCorrected = 0, kEccUncorrected = 1;  // nvmlMemoryErrorType_t
constexpr int kVolatileEcc = 0;                        // nvmlEccCounterType_t
constexpr unsigned kMaxNvLinks = 18;                   // NVML_NVLINK_MAX_LINKS

}  // namespace

std::string normalizeBusId(std::string id) {
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
  auto colon = id.find(':');
  if (colon != std::string::npos && colon > 4) id = id.substr(colon - 4);  // 8-digit NVML domain -> 4 digits
  return id;
}

bool fillFromNvml(GpuRuntime& g, std::string& error) {
  NvmlSession nvml;
  if (!nvml.ok()) {
    error = nvml.error();
    return false;
  }
  auto driverVersion = nvml.sym<nvmlReturn_t (*)(char*, unsigned)>("nvmlSystemGetDriverVersion");
  auto byBusId = nvml.sym<nvmlReturn_t (*)(const char*, nvmlDevice_t*)>("nvmlDeviceGetHandleByPciBusId_v2");
  auto eccMode = nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, int*, int*)>("nvmlDeviceGetEccMode");
  auto eccCount =
      nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, int, int, unsigned long long*)>("nvmlDeviceGetTotalEccErrors");
  auto persistence = nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, int*)>("nvmlDeviceGetPersistenceMode");
  auto curGen = nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, unsigned*)>("nvmlDeviceGetCurrPcieLinkGeneration");
  auto curWidth = nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, unsigned*)>("nvmlDeviceGetCurrPcieLinkWidth");
  auto maxGen = nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, unsigned*)>("nvmlDeviceGetMaxPcieLinkGeneration");
  auto maxWidth = nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, unsigned*)>("nvmlDeviceGetMaxPcieLinkWidth");
  auto linkState = nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, unsigned, int*)>("nvmlDeviceGetNvLinkState");
  auto remotePci =
      nvml.sym<nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlPciInfo_t*)>("nvmlDeviceGetNvLinkRemotePciInfo_v2");

  char buf[96] = {};
  if (driverVersion && driverVersion(buf, sizeof buf) == kNvmlSuccess) g.nvmlDriverVersion = buf;
  for (auto& gpu : g.gpus) {
    nvmlDevice_t d = nullptr;
    if (!byBusId || byBusId(gpu.pciBusId.c_str(), &d) != kNvmlSuccess) continue;
    int cur = 0, pend = 0, on = 0;
    unsigned u = 0;
    unsigned long long n = 0;
    if (eccMode && eccMode(d, &cur, &pend) == kNvmlSuccess) gpu.eccEnabled = cur == 1;
    if (gpu.eccEnabled.value_or(false) && eccCount) {
      if (eccCount(d, kEccUncorrected, kVolatileEcc, &n) == kNvmlSuccess)
        gpu.eccUncorrectedVolatile = static_cast<long long>(n);
      if (eccCount(d, kEccCorrected, kVolatileEcc, &n) == kNvmlSuccess)
        gpu.eccCorrectedVolatile = static_cast<long long>(n);
    }
    if (persistence && persistence(d, &on) == kNvmlSuccess) gpu.persistence = on == 1;
    if (curGen && curGen(d, &u) == kNvmlSuccess) gpu.pcieGen = static_cast<int>(u);
    if (curWidth && curWidth(d, &u) == kNvmlSuccess) gpu.pcieWidth = static_cast<int>(u);
    if (maxGen && maxGen(d, &u) == kNvmlSuccess) gpu.pcieGenMax = static_cast<int>(u);
    if (maxWidth && maxWidth(d, &u) == kNvmlSuccess) gpu.pcieWidthMax = static_cast<int>(u);
    for (unsigned link = 0; linkState && link < kMaxNvLinks; ++link) {
      int active = 0;
      if (linkState(d, link, &active) != kNvmlSuccess || active != 1) continue;
      ++gpu.nvlinkActive;
      nvmlPciInfo_t pci{};
      if (remotePci && remotePci(d, link, &pci) == kNvmlSuccess) gpu.nvlinkPeers.push_back(normalizeBusId(pci.busId));
    }
    readNvmlHealth(nvml, d, gpu);
  }
  return true;
}

}  // namespace pf::probes

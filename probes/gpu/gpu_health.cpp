// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "gpu/gpu_health.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

namespace pf::probes {
namespace {

std::string gpuName(const RuntimeGpu& g) { return fmt::format("GPU {} ({})", g.index, g.pciBusId); }

std::vector<std::string> clockReasons(unsigned long long bits) {
  std::vector<std::string> out;
  if (bits & kClocksHwSlowdown) out.push_back("HW slowdown");
  if (bits & kClocksHwThermal) out.push_back("HW thermal slowdown");
  if (bits & kClocksHwPowerBrake) out.push_back("HW power brake");
  if (bits & kClocksSwThermal) out.push_back("SW thermal slowdown");
  return out;
}

void judgeMemory(const RuntimeGpu& g, Json& row, Findings& f) {
  if (g.retiredPagesSbe) row["retired_pages_sbe"] = *g.retiredPagesSbe;
  if (g.retiredPagesDbe) row["retired_pages_dbe"] = *g.retiredPagesDbe;
  if (g.retiredPagesPending) row["retired_pages_pending"] = *g.retiredPagesPending;
  if (g.remappedRowsCorrectable) row["remapped_rows_correctable"] = *g.remappedRowsCorrectable;
  if (g.remappedRowsUncorrectable) row["remapped_rows_uncorrectable"] = *g.remappedRowsUncorrectable;
  if (g.remapPending) row["row_remap_pending"] = *g.remapPending;
  if (g.remapFailed) row["row_remap_failed"] = *g.remapFailed;
  if (g.remapFailed.value_or(false))
    f.add(Status::kFail,
          fmt::format("{}: row remapping failed: the GPU has no spare memory row left for a failing one", gpuName(g)),
          "drain the node and replace the GPU (RMA); NVIDIA's memory error guide treats a remap failure as a hardware "
          "fault");
  if (g.remapPending.value_or(false))
    f.add(Status::kFail,
          fmt::format("{}: a memory row remap is pending: the failing row stays in use until the GPU is reset",
                      gpuName(g)),
          fmt::format("drain the GPU's jobs and reset it (nvidia-smi -r -i {}) or reboot the node", g.pciBusId));
  if (g.retiredPagesPending.value_or(false))
    f.add(
        Status::kFail,
        fmt::format("{}: a page retirement is pending: the bad page stays in use until the driver reloads", gpuName(g)),
        fmt::format("drain the GPU's jobs and reset it (nvidia-smi -r -i {}) or reboot the node", g.pciBusId));
}

void judgeClocksAndLinks(const RuntimeGpu& g, Json& row, Findings& f) {
  if (g.clocksEvents) {
    row["clocks_event_reasons"] = fmt::format("{:#x}", *g.clocksEvents);
    if (auto why = clockReasons(*g.clocksEvents); !why.empty())
      f.add(Status::kWarn, fmt::format("{}: clocks held down by {}", gpuName(g), fmt::join(why, ", ")),
            "check the GPU's cooling, inlet temperature and power supply (nvidia-smi -q -d PERFORMANCE,TEMPERATURE, "
            "and the BMC's sensor log); HW slowdown or power brake on an idle GPU points at the board or its power");
  }
  Json links = Json::array();
  for (const auto& e : g.nvlinkErrors) {
    links.push_back({{"link", e.link},
                     {"replay", e.replay},
                     {"recovery", e.recovery},
                     {"crc_flit", e.crcFlit},
                     {"crc_data", e.crcData}});
    if (e.replay + e.recovery + e.crcFlit + e.crcData > 0)
      f.add(Status::kWarn,
            fmt::format("{} NVLink {}: error counters above zero since the driver loaded (replay {}, recovery {}, CRC "
                        "flit {}, CRC data {})",
                        gpuName(g), e.link, e.replay, e.recovery, e.crcFlit, e.crcData),
            fmt::format("watch whether they rise (nvidia-smi nvlink -e -i {}); a rising count on one link points at "
                        "the link or its NVSwitch port: reset the GPU, then reseat or replace the board",
                        g.index));
  }
  if (!links.empty()) row["nvlink_errors"] = links;
}

void judgeFabric(const RuntimeGpu& g, Json& row, Findings& f) {
  if (!g.fabricState || *g.fabricState == kFabricNotSupported) return;  // not on an NVSwitch fabric
  static const char* const names[] = {"not_supported", "not_started", "in_progress", "completed"};
  const int s = *g.fabricState;
  row["fabric_state"] = s >= 0 && s <= 3 ? names[s] : std::to_string(s);
  if (g.fabricStatus) row["fabric_status"] = *g.fabricStatus;
  const std::string fm =
      "check the NVIDIA Fabric Manager (systemctl status nvidia-fabricmanager; its log, "
      "/var/log/fabricmanager.log) and restart it; CUDA jobs cannot start until it finishes";
  if (s == kFabricNotStarted || s == kFabricInProgress)
    f.add(Status::kFail,
          fmt::format("{}: the NVLink fabric is {} (the fabric manager has not finished bringing it up)", gpuName(g),
                      s == kFabricNotStarted ? "not started" : "still being trained"),
          fm);
  else if (s == kFabricCompleted && g.fabricStatus.value_or(0) != 0)
    f.add(Status::kFail,
          fmt::format("{}: the fabric manager finished with an error (NVML status {})", gpuName(g), *g.fabricStatus),
          fm);
}

}  // namespace

void judgeGpuHealth(const RuntimeGpu& g, Json& row, Findings& f) {
  judgeMemory(g, row, f);
  judgeClocksAndLinks(g, row, f);
  judgeFabric(g, row, f);
}

}  // namespace pf::probes

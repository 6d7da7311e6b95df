// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// gpu_health: what NVML keeps about each GPU's health beyond the gpu probe's ECC counts and persistence mode:
// pending or failed row remapping and page retirement, NVLink error counters per active link, the reasons the
// clocks are held down, and on NVSwitch systems the fabric manager's state (gpu/gpu_health.hpp judges them).
// Asked on a live node only (NVML has no captured form). Not run on a GPU node yet: tested with a stand-in NVML
// and on constructed readings.
#include <fmt/format.h>

#include "gpu/gpu_health.hpp"
#include "gpu_runtime.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

class GpuHealthProbe final : public Probe {
 public:
  std::string description() const override {
    return "GPU health through NVML: row remapping, retired pages, NVLink error counters, clock throttling, fabric "
           "manager state";
  }

  Result run(const SystemView& sys, const ProbeOptions&) const override {
    Result r;
    const GpuRuntime* rt = sys.gpuRuntime();
    if (!rt || rt->gpus.empty()) {
      r.status = Status::kAbsent;
      r.message = !rt ? "NVML is asked on a live node only" : "no GPU that CUDA can see: nothing for NVML to read";
      return r;
    }
    addEvidence(r, "NVML", rt->nvmlOk ? Json(rt->nvmlDriverVersion) : Json(rt->nvmlError), "libnvidia-ml.so.1");
    if (!rt->nvmlOk) {
      r.status = Status::kWarn;
      r.message = fmt::format("NVML cannot be asked ({}), so GPU health is not looked at", rt->nvmlError);
      r.remedy = "install the driver's NVML (libnvidia-ml.so.1, part of the NVIDIA driver package)";
      return r;
    }
    Findings f;
    int remap = 0, retire = 0, clocks = 0, links = 0, fabric = 0;  // what NVML answered: the pass says only that
    for (const auto& g : rt->gpus) {
      Json row{{"cuda_index", g.index}, {"bdf", g.pciBusId}};
      judgeGpuHealth(g, row, f);
      r.rows.push_back(std::move(row));
      remap += g.remapPending.has_value();
      retire += g.retiredPagesPending.has_value();
      clocks += g.clocksEvents.has_value();
      links += static_cast<int>(g.nvlinkErrors.size());
      fabric += g.fabricState.value_or(kFabricNotSupported) != kFabricNotSupported;
    }
    const int n = static_cast<int>(rt->gpus.size());
    r.metrics["gpu_count"] = n;
    std::string pass = fmt::format(
        "{} GPU(s); NVML answered row remapping on {}, page retirement on {}, clock reasons on {}, NVLink error "
        "counters on {} links{}: none pending, failed, throttled or above zero",
        n, remap, retire, clocks, links, fabric ? fmt::format(", fabric state on {}", fabric) : "");
    if (remap + retire + clocks + links + fabric == 0)  // nothing was looked at: no pass
      f.add(Status::kWarn, fmt::format("NVML answered none of the health queries for the {} GPU(s)", n),
            "update the NVIDIA driver (row remapping and clock reasons need r450 or later)");
    f.apply(r, pass);
    return r;
  }
};

PF_REGISTER_PROBE(GpuHealthProbe, "gpu_health");

}  // namespace
}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// gpu: NVIDIA GPUs from two sources that must agree: sysfs/procfs (PCI functions, link width and speed, NUMA
// node, the kernel module's version) and, on a live node, the CUDA runtime and NVML (what a job will really see:
// count, name, memory, driver and runtime CUDA versions, ECC mode and error counts, persistence mode).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

#include "gpu/gpu_sysfs.hpp"
#include "gpu_runtime.hpp"
#include "ib/ib_devices.hpp"
#include "pf/json_field.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

std::string cudaVersion(int v) { return v > 0 ? fmt::format("{}.{}", v / 1000, (v % 1000) / 10) : ""; }

const RuntimeGpu* runtimeFor(const GpuRuntime* rt, const std::string& bdf) {
  if (!rt) return nullptr;
  for (const auto& g : rt->gpus)
    if (g.pciBusId == bdf) return &g;
  return nullptr;
}

void addRuntime(Json& row, const RuntimeGpu& g, Findings& f) {
  row["cuda_index"] = g.index;
  row["name"] = g.name;
  row["memory_bytes"] = g.memBytes;
  row["compute_capability"] = fmt::format("{}.{}", g.ccMajor, g.ccMinor);
  if (g.eccEnabled) row["ecc_enabled"] = *g.eccEnabled;
  if (g.eccUncorrectedVolatile) row["ecc_uncorrected_volatile"] = *g.eccUncorrectedVolatile;
  if (g.eccCorrectedVolatile) row["ecc_corrected_volatile"] = *g.eccCorrectedVolatile;
  if (g.persistence) row["persistence_mode"] = *g.persistence;
  if (g.pcieGen) row["nvml_pcie_gen"] = *g.pcieGen;
  if (g.pcieWidth) row["nvml_pcie_width"] = *g.pcieWidth;
  row["nvlink_active"] = g.nvlinkActive;
  if (g.multicast) row["multicast_supported"] = *g.multicast;
  if (g.eccUncorrectedVolatile.value_or(0) > 0)
    f.add(Status::kFail,
          fmt::format("GPU {} ({}) has {} uncorrected ECC errors since the driver loaded", g.index, g.pciBusId,
                      *g.eccUncorrectedVolatile),
          "drain the node; reset the GPU (nvidia-smi -r) or reboot, and RMA it if the errors return");
  if (g.persistence && !*g.persistence)
    f.add(Status::kWarn,
          fmt::format("GPU {} is not in persistence mode: every job pays the driver's start-up", g.index),
          "run nvidia-persistenced (systemctl enable --now nvidia-persistenced) or nvidia-smi -pm 1");
}

/// Why this process is meant to see only some of the node's GPUs, so that CUDA showing fewer than sysfs lists is
/// no fault (sysfs is not namespaced: a container or an allocation still sees every GPU there); empty when
/// nothing limits it.
std::string limitToSomeGpus(const SystemView& sys, int onBus) {
  if (auto v = sys.env().get("CUDA_VISIBLE_DEVICES")) return "CUDA_VISIBLE_DEVICES=" + *v;
  if (auto v = sys.env().get("NVIDIA_VISIBLE_DEVICES"); v && *v != "all")  // the NVIDIA container runtime
    return "NVIDIA_VISIBLE_DEVICES=" + *v;
  int nodes = 0;  // the driver makes /dev/nvidia<N> per GPU; a container is given the nodes of its GPUs only
  for (const std::string& name : sys.list("/dev"))
    nodes +=
        name.size() > 6 && name.starts_with("nvidia") && name.find_first_not_of("0123456789", 6) == std::string::npos;
  if (nodes < onBus) return fmt::format("{} of the {} /dev/nvidia<N> device nodes present", nodes, onBus);
  return {};
}

class GpuProbe final : public Probe {
 public:
  std::string description() const override {
    return "NVIDIA GPUs: count, model, driver/CUDA versions, memory, ECC, PCIe link, NUMA, persistence";
  }

  Result run(const SystemView& sys, const ProbeOptions&) const override {
    Result r;
    const auto gpus = readSysGpus(sys);
    const NvidiaModule mod = readNvidiaModule(sys);
    const GpuRuntime* rt = sys.gpuRuntime();
    addEvidence(r, "NVIDIA display-class PCI functions", static_cast<int>(gpus.size()), "/sys/bus/pci/devices");
    // A GPU bound to the nvidia driver or one CUDA opened proves the module loaded where procfs hides it (a
    // container without /proc/driver/nvidia).
    bool bound = false;
    for (const auto& g : gpus) bound |= g.pci.driver == "nvidia";
    const bool loaded = mod.loaded || bound || (rt && rt->cudaOk && !rt->gpus.empty());
    const std::string state = !mod.version.empty() ? mod.version : loaded ? "loaded" : "not loaded";
    addEvidence(r, "NVIDIA kernel module", state,
                loaded && !mod.loaded ? "the GPUs' bound driver, CUDA" : "/proc/driver/nvidia/version");
    if (rt)
      addEvidence(r, "CUDA devices", rt->cudaOk ? Json(static_cast<int>(rt->gpus.size())) : Json(rt->cudaError),
                  "cudaGetDeviceCount()");
    const int cudaCount = rt && rt->cudaOk ? static_cast<int>(rt->gpus.size()) : 0;
    if (gpus.empty() && cudaCount == 0) {
      r.status = Status::kAbsent;
      r.message = fmt::format("no NVIDIA GPU: no PCI function of vendor 0x10de with a display class{}",
                              rt ? "; " + (rt->cudaOk ? std::string("cudaGetDeviceCount() = 0") : rt->cudaError) : "");
      return r;
    }
    Findings f;
    if (!gpus.empty() && !loaded)
      f.add(Status::kFail,
            fmt::format("{} NVIDIA GPU(s) on the PCI bus but the nvidia kernel module is not loaded", gpus.size()),
            "install/load the driver (modprobe nvidia; check `dmesg | grep -i nvrm` for why it failed)");

    std::map<std::string, int> models;
    for (const auto& g : gpus) {
      Json row = toJson(g.pci);
      row["model"] = g.model;
      ++models[g.model];
      if (g.pci.maxLinkWidth > 0 && g.pci.curLinkWidth > 0 && g.pci.curLinkWidth < g.pci.maxLinkWidth)
        f.add(Status::kWarn,
              fmt::format("GPU {} PCIe link runs x{} of x{}: host<->device copies lose {:.0f}% of their bandwidth",
                          g.pci.bdf, g.pci.curLinkWidth, g.pci.maxLinkWidth,
                          100.0 * (1.0 - double(g.pci.curLinkWidth) / g.pci.maxLinkWidth)),
              "reseat the GPU or its riser, check BIOS PCIe bifurcation, and drain the node if it persists");
      if (const RuntimeGpu* rg = runtimeFor(rt, g.pci.bdf)) addRuntime(row, *rg, f);
      r.rows.push_back(std::move(row));
    }
    if (rt) {
      std::set<std::string> seen;
      for (const auto& g : gpus) seen.insert(g.pci.bdf);
      for (const auto& rg : rt->gpus)
        if (!seen.count(rg.pciBusId)) {  // sysfs hidden (some containers): the runtime still counts
          Json row{{"bdf", rg.pciBusId}, {"model", rg.name}};
          ++models[rg.name];
          addRuntime(row, rg, f);
          r.rows.push_back(std::move(row));
        }
      const std::string limit = limitToSomeGpus(sys, static_cast<int>(gpus.size()));
      if (!rt->cudaOk && !gpus.empty())
        f.add(Status::kFail, fmt::format("CUDA cannot use this node's GPUs: {}", rt->cudaError),
              "check the driver against the CUDA runtime (nvidia-smi; `dmesg | grep -i xid`) and the container's GPU "
              "access");
      else if (cudaCount < static_cast<int>(gpus.size()) && !limit.empty())
        addEvidence(r, "GPUs this process may use", cudaCount,
                    fmt::format("CUDA, of {} on the PCI bus: limited by {}", gpus.size(), limit));
      else if (cudaCount < static_cast<int>(gpus.size()))
        f.add(Status::kFail,
              fmt::format("CUDA sees {} of the {} GPUs on the PCI bus: a GPU failed to initialise or fell off the bus",
                          cudaCount, gpus.size()),
              "look for Xid errors (dmesg | grep -i xid), reset or reboot, and drain the node until all GPUs show");
      // CUDA's minor-version compatibility (docs.nvidia.com/deploy/cuda-compatibility, CUDA 11 and later): a
      // runtime runs on any driver of its own major release, with the features that driver has; only a newer
      // major release cannot run at all. A newer minor is recorded, not failed.
      const int driverMajor = rt->driverVersion / 1000, runtimeMajor = rt->runtimeVersion / 1000;
      if (rt->driverVersion > 0 && runtimeMajor > driverMajor)
        f.add(Status::kFail,
              fmt::format("the driver supports CUDA {} but the runtime is CUDA {}, a newer major release: kernels "
                          "fail with \"driver version is insufficient\"",
                          cudaVersion(rt->driverVersion), cudaVersion(rt->runtimeVersion)),
              "upgrade the NVIDIA driver to one of the runtime's major release, or use a CUDA runtime of the "
              "driver's major release");
      else if (rt->driverVersion > 0 && rt->runtimeVersion > rt->driverVersion)
        addEvidence(r, "CUDA minor-version compatibility", cudaVersion(rt->runtimeVersion),
                    fmt::format("the runtime is newer than the driver's CUDA {} within one major release: it runs, "
                                "but calls that need the newer driver return cudaErrorCallRequiresNewerDriver and "
                                "newer PTX cannot be JIT-compiled",
                                cudaVersion(rt->driverVersion)));
    }
    // GPUDirect RDMA needs nvidia_peermem, or DMA-BUF with the open kernel modules.
    RdmaStack rdma = readRdmaStack(sys);
    bool ibNics = false;
    for (const auto& d : rdma.devices) ibNics |= !isEfa(d);
    if (ibNics && !mod.version.empty() && !mod.open && !sys.exists("/sys/module/nvidia_peermem"))
      f.add(Status::kWarn,
            "nvidia_peermem is not loaded and the driver is not the open kernel module (DMA-BUF): NCCL cannot use "
            "GPUDirect RDMA and stages network traffic through host memory",
            "modprobe nvidia-peermem (and add it to /etc/modules-load.d/)");

    std::vector<std::string> modelList;
    for (const auto& [m, n] : models) modelList.push_back(fmt::format("{} x{}", m, n));
    r.metrics["gpu_count"] = static_cast<int>(r.rows.size());
    r.params["model"] =
        models.size() == 1 ? Json(models.begin()->first) : Json(fmt::format("{}", fmt::join(modelList, ", ")));
    std::string drv = mod.version.empty() && rt ? rt->nvmlDriverVersion : mod.version;
    r.params["driver_version"] = jsonOrNull(drv);
    r.params["cuda_driver_version"] = rt && rt->driverVersion ? Json(cudaVersion(rt->driverVersion)) : Json();
    r.params["cuda_runtime_version"] = rt && rt->runtimeVersion ? Json(cudaVersion(rt->runtimeVersion)) : Json();
    r.params["open_kernel_module"] = mod.open;
    if (rt && !rt->nvmlOk) addEvidence(r, "NVML", rt->nvmlError, "libnvidia-ml.so.1");
    f.apply(r, fmt::format("{} GPU(s): {}; driver {}", r.rows.size(), fmt::join(modelList, ", "),
                           drv.empty() ? "unknown" : drv));
    return r;
  }
};

PF_REGISTER_PROBE(GpuProbe, "gpu");

}  // namespace
}  // namespace pf::probes

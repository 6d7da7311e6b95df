// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Judging a node against its profile. Each judged item becomes a row (expected, found, status); a missing or
// degraded part fails with the part named and a remedy. One exception is a warning: a GPU's PCIe generation
// below the profile's, since GPUs lower their link speed when idle to save power and sysfs shows the current one.
#include <fmt/format.h>

#include <iostream>

#include "probe.hpp"
#include "probe_util.hpp"
#include "profile/node_profile.hpp"
#include "profile/profile_catalog.hpp"
#include "profile/profile_judge_util.hpp"

namespace pf::probes {
namespace {

using profile_detail::atLeast;
using profile_detail::Judge;

const char* kRemedyGpuGone =
    "a GPU is missing: check `nvidia-smi` and `lspci -d 10de:`; one that fell off the bus (Xid 79) needs a reset or "
    "a reboot, else drain the node for a hardware check";
const char* kRemedyPcie =
    "the PCIe link trained narrower or slower than it should: reseat the card or its riser/cable, check the slot's "
    "BIOS settings (`lspci -vv -s BDF`, LnkSta against LnkCap); drain the node until it is fixed";
const char* kRemedyHcaGone =
    "an RDMA device is missing: check `ibv_devices`, the mlx5_core driver and `dmesg`; reseat or replace the HCA";
const char* kRemedyPort =
    "the port trained below its rate or is not up: reseat or replace the cable or transceiver and check the switch "
    "port (`ibstat`, `mlxlink -d DEV`); on InfiniBand check that a subnet manager runs";

std::string rangeText(const std::optional<std::string>& lo, const std::optional<std::string>& hi) {
  return lo && hi ? fmt::format("{} to {}", *lo, *hi)
         : lo     ? fmt::format("{} or later", *lo)
                  : fmt::format("{} or earlier", hi.value_or(""));
}

void judgeRange(Judge& j, const std::string& part, const std::string& found, const std::optional<std::string>& lo,
                const std::optional<std::string>& hi, const std::string& source, const std::string& remedy) {
  if (!lo && !hi) return;
  const std::string want = rangeText(lo, hi);
  const bool ok =
      !found.empty() && (!lo || compareVersions(found, *lo) >= 0) && (!hi || compareVersions(found, *hi) <= 0);
  j.item(ok, part, "version", want, found.empty() ? Json() : Json(found), want, found.empty() ? "not found" : found,
         source, remedy);
}

void judgeRdma(Judge& j, const NodeFacts& f, const std::string& layer, const char* table, const RdmaSpec& s) {
  if (!s.any()) return;
  std::vector<const HcaFacts*> devs;
  std::string names;
  long long ports = 0;
  for (const HcaFacts& h : f.hcas)
    if (h.linkLayer == layer) {
      devs.push_back(&h);
      names += (names.empty() ? "" : ", ") + h.name;
      ports += static_cast<long long>(h.ports.size());
    }
  const std::string part = fmt::format("{} devices ({})", layer, table);
  const std::string src = "/sys/class/infiniband";
  const auto n = static_cast<long long>(devs.size());
  if (s.count)
    j.item(n >= *s.count, part, "count", *s.count, n, atLeast(*s.count),
           fmt::format("{} ({})", n, names.empty() ? "none" : names), src, kRemedyHcaGone);
  if (s.ports)
    j.item(ports >= *s.ports, part, "ports", *s.ports, ports, atLeast(*s.ports), std::to_string(ports), src,
           kRemedyHcaGone);
  for (const HcaFacts* h : devs) {
    if (h->link && s.pcieGen)
      j.item(h->link->gen >= *s.pcieGen, h->name, "PCIe generation", *s.pcieGen, h->link->gen,
             fmt::format("Gen{}", *s.pcieGen), fmt::format("Gen{}", h->link->gen),
             h->link->source + "/current_link_speed", kRemedyPcie);
    if (h->link && s.pcieWidth)
      j.item(h->link->width >= *s.pcieWidth, h->name, "PCIe width", *s.pcieWidth, h->link->width,
             fmt::format("x{}", *s.pcieWidth), fmt::format("x{}", h->link->width),
             h->link->source + "/current_link_width", kRemedyPcie);
    for (const PortFacts& p : h->ports) {
      const std::string port = fmt::format("{} port {}", h->name, p.num);
      const std::string dir = fmt::format("/sys/class/infiniband/{}/ports/{}", h->name, p.num);
      if (s.state)
        j.item(p.state == *s.state, port, "state", *s.state, p.state, *s.state, p.state, dir + "/state", kRemedyPort);
      if (s.rateGbit)
        j.item(p.rateGbit >= *s.rateGbit, port, "rate", *s.rateGbit, p.rateGbit, fmt::format("{} Gb/s", *s.rateGbit),
               fmt::format("{} Gb/s", p.rateGbit), dir + "/rate", kRemedyPort);
      if (s.width)
        j.item(p.width >= *s.width, port, "width", fmt::format("{}X", *s.width), fmt::format("{}X", p.width),
               fmt::format("{}X", *s.width), fmt::format("{}X", p.width), dir + "/rate", kRemedyPort);
      if (s.mtu && p.mtu)
        j.item(*p.mtu >= *s.mtu, port, "MTU", *s.mtu, *p.mtu, atLeast(*s.mtu), std::to_string(*p.mtu),
               "/sys/class/net/" + p.netdev + "/mtu",
               fmt::format("raise the MTU of {} to {} (`ip link set dev {} mtu {}`) and on its switch port", p.netdev,
                           *s.mtu, p.netdev, *s.mtu));
    }
  }
}

void judgeGpus(Judge& j, const NodeFacts& f, const NodeProfile& p) {
  const auto& g = p.gpu;
  const auto n = static_cast<long long>(f.gpus.size());
  if (g.count)
    j.item(n >= *g.count, "GPUs", "count", *g.count, n, atLeast(*g.count), std::to_string(n), "/sys/bus/pci/devices",
           kRemedyGpuGone);
  for (const GpuFacts& gpu : f.gpus) {
    const std::string part = "GPU " + gpu.bdf;
    if (g.model)
      j.item(gpu.model == *g.model, part, "model", *g.model, gpu.model, "'" + *g.model + "'", "'" + gpu.model + "'",
             "/proc/driver/nvidia/gpus/" + gpu.bdf + "/information",
             "this node's GPUs are not the profile's: judge it with the profile of its own SKU");
    if (g.memoryMib)
      j.item(gpu.memoryMib && *gpu.memoryMib >= *g.memoryMib, part, "memory", *g.memoryMib,
             gpu.memoryMib ? Json(*gpu.memoryMib) : Json(), atLeast(*g.memoryMib, " MiB"),
             gpu.memoryMib ? fmt::format("{} MiB", *gpu.memoryMib) : std::string("unknown (no CUDA/NVML here)"),
             "CUDA runtime / NVML", "run on the node itself, where NVML can report the memory",
             gpu.memoryMib ? Status::kFail : Status::kWarn);
    if (g.pcieWidth)
      j.item(gpu.link.width >= *g.pcieWidth, part, "PCIe width", *g.pcieWidth, gpu.link.width,
             fmt::format("x{}", *g.pcieWidth), fmt::format("x{}", gpu.link.width),
             gpu.link.source + "/current_link_width", kRemedyPcie);
    if (g.pcieGen)
      j.item(gpu.link.gen >= *g.pcieGen, part, "PCIe generation", *g.pcieGen, gpu.link.gen,
             fmt::format("Gen{}", *g.pcieGen), fmt::format("Gen{}", gpu.link.gen),
             gpu.link.source + "/current_link_speed",
             "GPUs lower their PCIe speed when idle: look again under load (`nvidia-smi -q -d PCIE`); if it stays "
             "low, reseat the GPU or its riser",
             Status::kWarn);
  }
  if (g.nvlinkLinks)
    for (const GpuFacts& gpu : f.gpus)
      j.item(gpu.nvlinkActive && *gpu.nvlinkActive >= *g.nvlinkLinks, "GPU " + gpu.bdf, "active NVLinks",
             *g.nvlinkLinks, gpu.nvlinkActive ? Json(*gpu.nvlinkActive) : Json(), atLeast(*g.nvlinkLinks),
             gpu.nvlinkActive ? std::to_string(*gpu.nvlinkActive) : std::string("cannot be read here (no NVML)"),
             "NVML nvmlDeviceGetNvLinkState",
             gpu.nvlinkActive ? "an NVLink is down: `nvidia-smi nvlink -s` names it; reset the GPU "
                                "(`nvidia-smi -r`) or reboot, and drain the node for a hardware check if it stays down"
                              : "run on the node itself, where NVML can report the NVLinks",
             gpu.nvlinkActive ? Status::kFail : Status::kWarn);
  if (p.cuda.driverMin || p.cuda.driverMax) {
    if (f.cudaDriver)
      judgeRange(j, "CUDA driver API", *f.cudaDriver, p.cuda.driverMin, p.cuda.driverMax, "cudaDriverGetVersion",
                 "install an NVIDIA driver whose CUDA version is in the profile's range (`nvidia-smi` shows it)");
    else
      j.item(false, "CUDA driver API", "version", rangeText(p.cuda.driverMin, p.cuda.driverMax), Json(),
             rangeText(p.cuda.driverMin, p.cuda.driverMax), "cannot be read here (no CUDA)", "cudaDriverGetVersion",
             "run on the node itself, where the CUDA driver can report its version", Status::kWarn);
  }
  judgeRange(j, "NVIDIA driver", f.driverVersion, g.driverMin, g.driverMax, "/proc/driver/nvidia/version",
             "install an NVIDIA driver in the profile's range, or update the profile when the fleet moves");
}

void judgeHost(Judge& j, const NodeFacts& f, const NodeProfile& p) {
  const auto& h = p.host;
  const std::string limits = "/proc/self/limits";
  const std::string memRemedy =
      "raise the memlock limit (limits.conf: `* - memlock unlimited`; systemd: LimitMEMLOCK=infinity; Slurm: "
      "PropagateResourceLimits; containers: --ulimit memlock=-1)";
  const Json found = !f.memlockFound ? Json() : f.memlockSoft ? Json(*f.memlockSoft) : Json("unlimited");
  const std::string foundText = !f.memlockFound ? "not readable"
                                : f.memlockSoft ? std::to_string(*f.memlockSoft) + " bytes"
                                                : "unlimited";
  if (h.memlockUnlimited)
    j.item(f.memlockFound && !f.memlockSoft, "host", "memlock", "unlimited", found, "unlimited", foundText, limits,
           memRemedy);
  else if (h.memlockBytes)
    j.item(f.memlockFound && (!f.memlockSoft || *f.memlockSoft >= *h.memlockBytes), "host", "memlock", *h.memlockBytes,
           found, atLeast(*h.memlockBytes, " bytes"), foundText, limits, memRemedy);
  if (h.shmBytes)
    j.item(f.shmBytes && *f.shmBytes >= *h.shmBytes, "host", "/dev/shm size", *h.shmBytes,
           f.shmBytes ? Json(*f.shmBytes) : Json(), atLeast(*h.shmBytes, " bytes"),
           f.shmBytes ? std::to_string(*f.shmBytes) + " bytes" : std::string("not mounted or unknown"), "/proc/mounts",
           "enlarge /dev/shm (`mount -o remount,size=SIZE /dev/shm`; containers: --shm-size)");
  if (h.transparentHugepages)
    j.item(f.transparentHugepages == h.transparentHugepages, "host", "transparent huge pages", *h.transparentHugepages,
           f.transparentHugepages ? Json(*f.transparentHugepages) : Json(), *h.transparentHugepages,
           f.transparentHugepages.value_or("not readable"), "/sys/kernel/mm/transparent_hugepage/enabled",
           fmt::format("`echo {0} > /sys/kernel/mm/transparent_hugepage/enabled`, or transparent_hugepage={0} on the "
                       "kernel command line",
                       *h.transparentHugepages));
}

}  // namespace

Result judgeNodeProfile(const NodeFacts& f, const NodeProfile& given, bool announce) {
  // --profile auto: each node picks its own built-in, from what it shows, and says which and why.
  const NodeProfile p = profileForNode(f, given);
  if ((!p.pickedBy.empty() || !p.noneFits.empty()) && announce)
    std::cerr << fmt::format(
        "preflight: {}: {}\n", f.host,
        p.noneFits.empty() ? p.pickedBy : "--profile auto: no built-in profile fits: " + p.noneFits);
  Result r;
  r.key = "probe.profile";
  r.kind = Kind::kProbe;
  r.host = f.host;
  r.params["profile"] = p.origin;
  if (!p.pickedBy.empty()) r.params["picked_by"] = p.pickedBy;
  if (!p.noneFits.empty()) {
    // --profile auto found none: say so and judge nothing (a pass here would claim a judgement never made).
    r.status = Status::kWarn;
    r.message = "no built-in profile fits: " + p.noneFits;
    r.remedy =
        "give --profile FILE (write one with `preflight probe --emit-profile FILE` on a known-good node) or a "
        "built-in name from `preflight probe --list-profiles`";
    return r;
  }
  Judge j(r);
  judgeGpus(j, f, p);
  judgeRdma(j, f, "InfiniBand", "ib", p.ib);
  judgeRdma(j, f, "Ethernet", "roce", p.roce);
  profile_detail::judgePlacement(j, f, p);
  judgeHost(j, f, p);
  judgeRange(j, "NCCL", f.ncclVersion, p.nccl.versionMin, p.nccl.versionMax, "libnccl.so",
             "install an NCCL in the profile's range (or point LD_LIBRARY_PATH at one)");
  j.apply(fmt::format("matches the profile {} ({} items judged){}", p.origin, r.rows.size(),
                      p.pickedBy.empty() ? "" : "; " + p.pickedBy));
  return r;
}

}  // namespace pf::probes

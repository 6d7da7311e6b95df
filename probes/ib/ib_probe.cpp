// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// ib: InfiniBand HCAs and RoCE NICs (EFA has its own probe): ports, state, rate, link layer, LID, GIDs; the
// user-space path (ib_uverbs, /dev/infiniband/uverbs*) without which NCCL and libfabric see no device and NCCL
// silently falls back to sockets; the ports NCCL_IB_HCA selects, resolved as NCCL does; NCCL_IB_GID_INDEX.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "ib/ib_devices.hpp"
#include "ib/ib_gid_check.hpp"
#include "ib/ib_hca_filter.hpp"
#include "nccl/nccl_conf.hpp"
#include "nccl/nccl_library.hpp"
#include "probe.hpp"
#include "probe_util.hpp"
#include "rdma_library.hpp"

namespace pf::probes {
namespace {

constexpr unsigned kClassInfiniBand = 0x0207;  // PCI base class 02 (network), subclass 07 (InfiniBand)

void checkUserSpace(const RdmaStack& s, Result& r, Findings& f) {
  addEvidence(r, "ib_uverbs module", s.uverbsModule ? "loaded" : "not loaded", "/sys/module/ib_uverbs");
  addEvidence(r, "verbs device nodes", s.devNodes, "/dev/infiniband");
  if (!s.uverbsModule) {
    f.add(Status::kFail,
          "the ib_uverbs module is not loaded: libibverbs (NCCL's IB transport, libfabric) sees no RDMA device and "
          "NCCL falls back to TCP sockets",
          "modprobe ib_uverbs, and add it to /etc/modules-load.d/ so it loads at boot");
  } else if (s.devNodes.empty()) {
    f.add(Status::kFail,
          "no /dev/infiniband/uverbs* device nodes although ib_uverbs is loaded: in a container the devices were "
          "not passed in",
          "run the container with --device=/dev/infiniband (Kubernetes: the RDMA device plugin's resource)");
  }
}

/// Down or degraded ports among those NCCL would consider.
void checkPorts(const std::vector<DevicePort>& sel, bool userSet, Findings& f) {
  // Rates are compared within a link layer: a storage Ethernet port is not a degraded InfiniBand one.
  std::map<std::string, double> best;
  int active = 0;
  for (const auto& [d, p] : sel)
    if (p->active()) {
      ++active;
      best[p->linkLayer] = std::max(best[p->linkLayer], p->rateGbit);
    }
  for (const auto& [d, p] : sel) {
    if (!p->active()) {
      f.add(userSet ? Status::kFail : Status::kWarn,
            fmt::format("{} port {} is {} (physical state {}){}", d->name, p->num, p->state.empty() ? "?" : p->state,
                        p->physState.empty() ? "?" : p->physState,
                        userSet ? ", but NCCL_IB_HCA selects it" : ": NCCL skips it and runs with fewer rails"),
            "check the cable, transceiver and switch port (ibstat, `ibstatus`; for RoCE `ip link`), or drain "
            "the node until it is repaired");
    } else if (p->rateGbit > 0 && p->rateGbit < best[p->linkLayer]) {
      f.add(Status::kWarn,
            fmt::format("{} port {} runs at {} while other {} ports run at {} Gb/s: the link trained down", d->name,
                        p->num, p->rateText, p->linkLayer, best[p->linkLayer]),
            "reseat or replace the cable/transceiver; compare `ibstat` with the switch port");
    }
  }
  // RoCE MTU follows each netdev's MTU; NCCL uses the smaller of the two ends, so one 1500-byte port drags down
  // every connection that lands on it (NCCL User Guide, "Troubleshooting", RoCE:
  // docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html).
  std::map<int, std::vector<std::string>> mtus;
  for (const auto& [d, p] : sel)
    if (p->active() && p->linkLayer == "Ethernet" && p->activeMtu) mtus[*p->activeMtu].push_back(d->name);
  if (mtus.size() > 1) {
    std::vector<std::string> parts;
    for (const auto& [m, names] : mtus) parts.push_back(fmt::format("{} on {}", m, fmt::join(names, ", ")));
    f.add(Status::kWarn, fmt::format("RoCE ports run different MTUs ({})", fmt::join(parts, "; ")),
          fmt::format("set the same netdev MTU (e.g. 9000) on every RoCE interface and switch port, giving RoCE MTU {}",
                      mtus.rbegin()->first));
  }
  if (!sel.empty() && active == 0)
    f.add(Status::kFail, "no port that NCCL would use is ACTIVE: NCCL falls back to TCP sockets",
          "bring the ports up (subnet manager for InfiniBand, link for RoCE) or drain the node");
}

/// On a live node: what libibverbs reports beside sysfs. The library's active MTU replaces the netdev estimate;
/// a port whose state differs between the two, or devices that user space cannot see, are flagged.
void compareWithVerbs(std::vector<IbDevice>& devs, Result& r, Findings& f) {
  const VerbsQuery& q = queryVerbs();
  addEvidence(r, "libibverbs devices", q.available ? Json(q.deviceCount) : Json(q.note), "ibv_get_device_list()");
  if (!q.available) return;
  if (!q.note.empty()) addEvidence(r, "libibverbs problems", q.note, "ibv_open_device()");
  if (q.deviceCount == 0 && !devs.empty())
    f.add(Status::kFail,
          fmt::format("sysfs lists {} RDMA device(s) but libibverbs finds none: NCCL will not use them", devs.size()),
          "check ib_uverbs, /dev/infiniband permissions and the rdma-core provider package (ibverbs-providers)");
  for (auto& d : devs)
    for (auto& p : d.ports)
      for (const auto& v : q.ports) {
        if (v.device != d.name || v.port != p.num) continue;
        p.activeMtu = v.activeMtu;
        if (v.state != p.state)
          f.add(Status::kWarn,
                fmt::format("{} port {}: sysfs says {} but ibv_query_port says {}", d.name, p.num, p.state, v.state),
                "re-run the check; if it persists, reload the driver (mlx5_ib) or reboot");
      }
}

class IbProbe final : public Probe {
 public:
  std::string description() const override {
    return "InfiniBand/RoCE ports, rates, GIDs, ib_uverbs; NCCL_IB_HCA and NCCL_IB_GID_INDEX against them";
  }

  Result run(const SystemView& sys, const ProbeOptions&) const override {
    Result r;
    RdmaStack s = readRdmaStack(sys);
    std::vector<IbDevice> devs;
    for (auto& d : s.devices)
      if (!isEfa(d)) devs.push_back(d);
    // PCI InfiniBand controllers that no RDMA device points at: the HCA is there, its IB driver is not.
    auto orphans = pciWithoutRdma(sys, s, [](const PciFunction& p) { return (p.classCode >> 8) == kClassInfiniBand; });
    addEvidence(r, "RDMA devices (not EFA)", static_cast<int>(devs.size()), "/sys/class/infiniband");
    Findings f;
    if (sys.isLive()) compareWithVerbs(devs, r, f);
    for (const auto& o : orphans)
      f.add(Status::kFail,
            fmt::format("InfiniBand controller {} ({}:{}, driver {}) has no RDMA device", o.bdf, hexId(o.vendor),
                        hexId(o.device), o.driver.empty() ? "none" : o.driver),
            "load the IB driver (modprobe mlx5_ib) and check `dmesg` for firmware errors");
    if (devs.empty() && orphans.empty()) {
      addEvidence(r, "PCI InfiniBand controllers (class 0x0207)", 0, "/sys/bus/pci/devices/*/class");
      r.status = Status::kAbsent;
      r.message =
          "no InfiniBand or RoCE device: /sys/class/infiniband lists none and no PCI InfiniBand controller "
          "is present";
      return r;
    }
    checkUserSpace(s, r, f);

    NcclSettings nccl = readNcclSettings(sys);
    const NcclIbPorts ncclPorts = selectNcclIbPorts(devs, nccl.get("NCCL_IB_HCA"));
    const HcaSelection& hs = ncclPorts.selection;
    const std::vector<DevicePort>& sel = ncclPorts.ports;
    for (const auto& m : hs.ambiguous)
      f.add(Status::kWarn, m, "prefix the list with '=' for exact names (NCCL_IB_HCA==mlx5_0,mlx5_1)");
    for (const auto& m : hs.unmatched)
      f.add(hs.selected.empty() ? Status::kFail : Status::kWarn, m, "correct NCCL_IB_HCA to names from `ibv_devices`");
    if (auto dis = nccl.get("NCCL_IB_DISABLE"); dis && *dis == "1")
      f.add(Status::kWarn, "NCCL_IB_DISABLE=1: NCCL will not use these RDMA ports and runs over TCP sockets",
            "unset NCCL_IB_DISABLE unless sockets are intended");

    checkPorts(sel, hs.userSet, f);
    NcclLibrary lib = findNcclLibrary(sys);
    checkGidIndex(sel, nccl.get("NCCL_IB_GID_INDEX"), lib.found ? lib.versionCode : 0, f, r.params);

    int active = 0, roce = 0, ib = 0;
    for (const auto& d : devs)
      for (const auto& p : d.ports) {
        r.rows.push_back(portRow(d, p));
        active += p.active() ? 1 : 0;
        (p.linkLayer == "Ethernet" ? roce : ib) += 1;
      }
    std::vector<std::string> selNames;
    for (const auto& [d, p] : sel) selNames.push_back(fmt::format("{}:{}", d->name, p->num));
    r.params["nccl_ib_ports"] = selNames;
    r.params["ofed_version"] = s.ofedVersion.empty() ? "inbox" : s.ofedVersion;
    if (auto v = nccl.get("NCCL_IB_HCA")) r.params["NCCL_IB_HCA"] = *v;
    r.metrics["device_count"] = static_cast<int>(devs.size());
    r.metrics["port_count"] = static_cast<int>(r.rows.size());
    r.metrics["active_ports"] = active;
    r.metrics["roce_ports"] = roce;
    r.metrics["infiniband_ports"] = ib;
    addEvidence(r, "ports NCCL would use", selNames,
                hs.userSet ? nccl.describe("NCCL_IB_HCA") : "all ports (NCCL_IB_HCA unset)");
    f.apply(r, fmt::format("{} device(s), {} of {} port(s) active; NCCL would use {}", devs.size(), active,
                           r.rows.size(), fmt::join(selNames, ", ")));
    return r;
  }
};

PF_REGISTER_PROBE(IbProbe, "ib");

}  // namespace
}  // namespace pf::probes

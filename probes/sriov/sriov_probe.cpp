// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// sriov: SR-IOV physical functions (sriov_totalvfs / sriov_numvfs / virtfn*) and virtual functions (a physfn link on
// the host; inside a VM, a VF device id), and which of the NIC functions NCCL would use are VFs. On Azure, the
// InfiniBand of the RDMA-capable sizes (the "r" in ND96asr_v4, HB120rs_v3) reaches the VM as ConnectX VFs; a VM of
// a size without the "r", or one whose VF did not attach, has only the accelerated-networking Ethernet VF, and NCCL
// falls back to TCP sockets.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "ib/ib_devices.hpp"
#include "nccl/nccl_conf.hpp"
#include "pf/json_field.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

constexpr unsigned kNetworkClass = 0x02;

/// "hyper-v", "xen", "kvm"-ish hints from DMI and the buses a hypervisor adds; empty on bare metal (or unknown).
std::string hypervisor(const SystemView& sys) {
  const std::string vendor = readText(sys, "/sys/class/dmi/id/sys_vendor");
  if (vendor == "Microsoft Corporation" || sys.exists("/sys/bus/vmbus")) return "hyper-v";
  if (vendor == "Amazon EC2") return "nitro";
  if (auto t = sys.read("/sys/hypervisor/type")) return trim(*t);
  return "";
}

const IbDevice* rdmaFor(const RdmaStack& s, const std::string& bdf) {
  for (const auto& d : s.devices)
    if (d.pci && d.pci->bdf == bdf) return &d;
  return nullptr;
}

class SriovProbe final : public Probe {
 public:
  std::string description() const override {
    return "SR-IOV physical and virtual NIC functions; whether the NICs NCCL would use are VFs (Azure IB VFs)";
  }

  Result run(const SystemView& sys, const ProbeOptions&) const override {
    Result r;
    RdmaStack s = readRdmaStack(sys);
    const std::string hv = hypervisor(sys);
    int pfs = 0, vfs = 0, ibVfs = 0;
    for (const auto& f : readPciFunctions(sys)) {
      if ((f.classCode >> 16) != kNetworkClass) continue;
      const bool vf = isVirtualFunction(f);
      if (!vf && f.sriovTotalVfs <= 0) continue;
      const IbDevice* rd = rdmaFor(s, f.bdf);
      Json row = toJson(f);
      row["role"] = vf ? "VF" : "PF";
      row["rdma_device"] = rd ? Json(rd->name) : Json();
      row["link_layer"] = rd && !rd->ports.empty() ? Json(rd->ports.front().linkLayer) : Json();
      if (vf) {
        ++vfs;
        row["physfn"] = f.physfn ? Json(*f.physfn) : Json();
        row["vf_evidence"] = f.physfn ? "physfn link" : "VF device id (the PF is outside this VM)";
        if (rd && !rd->ports.empty() && rd->ports.front().linkLayer == "InfiniBand") ++ibVfs;
      } else {
        ++pfs;
        row["sriov_totalvfs"] = f.sriovTotalVfs;
        row["sriov_numvfs"] = f.sriovNumVfs;
        row["virtfns"] = f.virtfns;
      }
      r.rows.push_back(std::move(row));
    }
    addEvidence(r, "SR-IOV physical functions", pfs, "/sys/bus/pci/devices/*/sriov_totalvfs");
    addEvidence(r, "virtual functions", vfs, "/sys/bus/pci/devices/*/physfn, VF device ids");
    addEvidence(r, "hypervisor", hv.empty() ? "none detected" : hv, "/sys/class/dmi/id/sys_vendor, /sys/bus/vmbus");
    r.params["hypervisor"] = jsonOrNull(hv);
    r.metrics["pf_count"] = pfs;
    r.metrics["vf_count"] = vfs;
    r.metrics["ib_vf_count"] = ibVfs;

    Findings f;
    const bool gpus = !sys.list("/proc/driver/nvidia/gpus").empty();
    if (hv == "hyper-v" && ibVfs == 0 && (vfs > 0 || gpus))
      f.add(Status::kWarn,
            "this Azure/Hyper-V VM has no InfiniBand VF: NCCL will run over TCP sockets. Only the RDMA-capable sizes "
            "(an \"r\" in the name, e.g. Standard_ND96asr_v4) get one",
            "use an RDMA-capable VM size; if it is one, deallocate and start the VM again so the VF attaches, and "
            "check `dmesg | grep mlx5`");
    if (pfs == 0 && vfs == 0) {
      if (f.any()) {
        f.apply(r, "");
        return r;
      }
      r.status = Status::kAbsent;
      r.message = "no SR-IOV capable NIC and no virtual function (no sriov_totalvfs, physfn link or VF device id)";
      return r;
    }

    // The RDMA ports NCCL would use, and whether each is a VF.
    Json used = Json::array();
    for (const auto& [d, p] : selectNcclIbPorts(s.devices, readNcclSettings(sys).get("NCCL_IB_HCA")).ports)
      if (d->pci)
        used.push_back(
            {{"device", d->name}, {"port", p->num}, {"pci", d->pci->bdf}, {"is_vf", isVirtualFunction(*d->pci)}});
    r.params["nccl_rdma_functions"] = used;
    f.apply(r, fmt::format("{} physical function(s) with SR-IOV, {} virtual function(s) ({} InfiniBand){}", pfs, vfs,
                           ibVfs, hv.empty() ? "" : ", hypervisor " + hv));
    return r;
  }
};

PF_REGISTER_PROBE(SriovProbe, "sriov");

}  // namespace
}  // namespace pf::probes

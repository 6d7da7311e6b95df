// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// topo: for each GPU, the RDMA NICs nearest to it and the CPU cores local to it. Distances come from the PCI
// ancestry and NUMA nodes in sysfs (the same files hwloc reads on Linux), named as NCCL's topology search does.
// A GPU whose nearest NIC is across the socket link sends every GPUDirect RDMA transfer over that link; NCCL
// still works, at a fraction of the bandwidth.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gpu/gpu_sysfs.hpp"
#include "ib/ib_devices.hpp"
#include "pf/json_field.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

class TopoProbe final : public Probe {
 public:
  std::string description() const override {
    return "nearest RDMA NIC and local CPU cores per GPU (PCI ancestry, NUMA); warns on cross-socket GPU-NIC pairs";
  }

  Result run(const SystemView& sys, const ProbeOptions&) const override {
    Result r;
    const auto gpus = readSysGpus(sys);
    RdmaStack s = readRdmaStack(sys);
    std::vector<const IbDevice*> nics;
    for (const auto& d : s.devices)
      if (d.pci) nics.push_back(&d);
    addEvidence(r, "GPUs", static_cast<int>(gpus.size()), "/sys/bus/pci/devices");
    addEvidence(r, "RDMA NICs", static_cast<int>(nics.size()), "/sys/class/infiniband/*/device");
    if (gpus.empty() || nics.empty()) {
      r.status = Status::kAbsent;
      r.message = gpus.empty() ? "no GPU: GPU-NIC placement does not apply"
                               : "no RDMA NIC: GPU-NIC placement does not apply (NCCL uses sockets between nodes)";
      return r;
    }
    Findings f;
    int crossSocket = 0;
    for (const auto& g : gpus) {
      PciPath best = PciPath::kUnknown;
      std::vector<std::string> nearest;
      for (const IbDevice* n : nics) {
        PciPath p = pciPath(g.pci, *n->pci);
        if (static_cast<int>(p) < static_cast<int>(best)) {
          best = p;
          nearest.clear();
        }
        if (p == best) nearest.push_back(n->name);
      }
      r.rows.push_back({{"gpu", g.pci.bdf},
                        {"model", g.model},
                        {"numa_node", g.pci.numaNode >= 0 ? Json(g.pci.numaNode) : Json()},
                        {"local_cpus", jsonOrNull(g.pci.localCpus)},
                        {"nearest_nics", nearest},
                        {"path", pciPathName(best)},
                        {"path_description", pciPathDescription(best)}});
      if (best == PciPath::kSys) {
        ++crossSocket;
        f.add(Status::kWarn,
              fmt::format("GPU {}'s nearest RDMA NIC ({}) is across the inter-socket link", g.pci.bdf,
                          fmt::join(nearest, ", ")),
              "install a NIC on that GPU's socket, or give NCCL a topology file (NCCL_TOPO_FILE) if sysfs "
              "misreports NUMA nodes (common in VMs)");
      }
    }
    r.metrics["gpu_count"] = static_cast<int>(gpus.size());
    r.metrics["nic_count"] = static_cast<int>(nics.size());
    r.metrics["gpus_with_cross_socket_nic"] = crossSocket;
    f.apply(r,
            fmt::format("{} GPU(s), {} RDMA NIC(s): every GPU has a NIC on its own socket", gpus.size(), nics.size()));
    return r;
  }
};

PF_REGISTER_PROBE(TopoProbe, "topo");

}  // namespace
}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "profile/node_facts.hpp"

#include <cstdlib>

#include "gpu/gpu_sysfs.hpp"
#include "gpu_runtime.hpp"
#include "host/host_limits.hpp"
#include "ib/ib_devices.hpp"
#include "nccl/nccl_library.hpp"
#include "pci.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

PcieLink linkOf(const PciFunction& f) { return {pcieGeneration(f.curLinkSpeed), f.curLinkWidth, f.sysfsDir}; }

std::optional<std::string> readThp(const SystemView& sys) {
  auto text = sys.read("/sys/kernel/mm/transparent_hugepage/enabled");
  if (!text) return std::nullopt;
  const auto open = text->find('['), close = text->find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  return text->substr(open + 1, close - open - 1);
}

}  // namespace

int rateWidth(const std::string& rateText) {
  const auto open = rateText.find('(');
  if (open == std::string::npos) return 0;
  const auto x = rateText.find('X', open);
  if (x == std::string::npos) return 0;
  auto n = parseInt(rateText.substr(open + 1, x - open - 1));
  return n && *n > 0 ? static_cast<int>(*n) : 0;
}

int compareVersions(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    char* end = nullptr;
    const long x = i < a.size() ? std::strtol(a.c_str() + i, &end, 10) : 0;
    i = i < a.size() ? static_cast<size_t>(end - a.c_str()) + 1 : i;
    const long y = j < b.size() ? std::strtol(b.c_str() + j, &end, 10) : 0;
    j = j < b.size() ? static_cast<size_t>(end - b.c_str()) + 1 : j;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

NodeFacts readNodeFacts(const SystemView& sys) {
  NodeFacts n;
  n.host = nodeName(sys);
  const GpuRuntime* rt = sys.gpuRuntime();
  for (const SysGpu& g : readSysGpus(sys)) {
    GpuFacts f{g.pci.bdf,    g.model,        linkOf(g.pci),     std::nullopt,
               std::nullopt, g.pci.numaNode, g.pci.rootComplex, g.pci.chain};
    if (rt)
      for (const RuntimeGpu& r : rt->gpus) {
        if (r.pciBusId != g.pci.bdf) continue;
        if (r.memBytes > 0) f.memoryMib = r.memBytes >> 20;
        if (rt->nvmlOk) f.nvlinkActive = r.nvlinkActive;
      }
    n.gpus.push_back(std::move(f));
  }
  const RdmaStack stack = readRdmaStack(sys);
  for (const IbDevice& d : stack.devices) {
    if (isEfa(d)) ++n.efaCount;
    if (isEfa(d) || d.ports.empty()) continue;
    HcaFacts h;
    h.name = d.name;
    h.linkLayer = d.ports.front().linkLayer;
    if (d.pci) {
      h.link = linkOf(*d.pci);
      h.numaNode = d.pci->numaNode;
      h.rootComplex = d.pci->rootComplex;
      h.chain = d.pci->chain;
    }
    for (const IbPort& p : d.ports) {
      PortFacts pf{p.num, p.state, p.linkLayer, p.rateText, p.netdev, p.rateGbit, rateWidth(p.rateText), std::nullopt};
      if (!p.netdev.empty()) pf.mtu = readInt(sys, "/sys/class/net/" + p.netdev + "/mtu");
      h.ports.push_back(std::move(pf));
    }
    n.hcas.push_back(std::move(h));
  }
  n.sysVendor = trim(sys.read("/sys/class/dmi/id/sys_vendor").value_or(""));
  n.productName = trim(sys.read("/sys/class/dmi/id/product_name").value_or(""));
  n.hypervVmbus = sys.exists("/sys/bus/vmbus");
  if (rt && rt->driverVersion > 0)
    n.cudaDriver = std::to_string(rt->driverVersion / 1000) + "." + std::to_string(rt->driverVersion % 1000 / 10);
  n.driverVersion = readNvidiaModule(sys).version;
  const NcclLibrary nccl = findNcclLibrary(sys);
  if (nccl.found) n.ncclVersion = nccl.version;
  const Limit memlock = readLimit(sys, "Max locked memory");
  n.memlockFound = memlock.found;
  n.memlockSoft = memlock.soft;
  n.shmBytes = readShm(sys).sizeBytes;
  n.transparentHugepages = readThp(sys);
  return n;
}

}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// GPU-NIC placement. GPUDirect RDMA is fastest when a GPU's traffic reaches its NIC without crossing the CPUs'
// interconnect (same NUMA node) and best when it stays below one PCIe switch (the GPU and the NIC share a bridge
// below the root port, NCCL's "PIX"/"PXB"). A GPU whose NIC moved (a card in the wrong slot, a BIOS that
// renumbered the NUMA nodes) loses both, and nothing else in a node's own checks notices. The NICs judged are
// the RDMA devices the profile covers (InfiniBand and RoCE; EFA has its own probe).
#include <fmt/format.h>

#include <algorithm>

#include "profile/profile_judge_util.hpp"

namespace pf::probes::profile_detail {
namespace {

std::string nicList(const std::vector<const HcaFacts*>& nics, bool numa) {
  std::string out;
  for (const HcaFacts* h : nics)
    out += (out.empty() ? "" : ", ") + (numa ? fmt::format("{} (NUMA {})", h->name, h->numaNode) : h->name);
  return out.empty() ? "none" : out;
}

}  // namespace

/// True when the two PCI functions share a bridge below the root port: their paths from the root port agree on
/// at least the root port and the switch's upstream port.
bool sharesPcieSwitch(const GpuFacts& g, const HcaFacts& h) {
  if (g.rootComplex.empty() || g.rootComplex != h.rootComplex) return false;
  size_t common = 0;
  // The last element is the function itself, never a bridge.
  while (common + 1 < g.chain.size() && common + 1 < h.chain.size() && g.chain[common] == h.chain[common]) ++common;
  return common >= 2;
}

bool nicOnNumaNode(const GpuFacts& g, const NodeFacts& f) {
  return g.numaNode >= 0 && std::any_of(f.hcas.begin(), f.hcas.end(), [&](const HcaFacts& h) {
           return !h.chain.empty() && h.numaNode == g.numaNode;
         });
}

bool nicBelowSwitch(const GpuFacts& g, const NodeFacts& f) {
  return std::any_of(f.hcas.begin(), f.hcas.end(),
                     [&](const HcaFacts& h) { return !h.chain.empty() && sharesPcieSwitch(g, h); });
}

void judgePlacement(Judge& j, const NodeFacts& f, const NodeProfile& p) {
  if (!p.placement.gpuNicNuma && !p.placement.gpuNicPcieSwitch) return;
  std::vector<const HcaFacts*> nics;
  for (const HcaFacts& h : f.hcas)
    if (!h.chain.empty()) nics.push_back(&h);
  for (const GpuFacts& g : f.gpus) {
    const std::string part = "GPU " + g.bdf;
    const std::string source = g.link.source;
    if (p.placement.gpuNicNuma) {
      const HcaFacts* same = nullptr;
      for (const HcaFacts* h : nics)
        if (g.numaNode >= 0 && h->numaNode == g.numaNode) same = h;
      if (g.numaNode < 0)
        j.item(false, part, "NIC on its NUMA node", true, Json(), "an RDMA NIC on the GPU's NUMA node",
               "unknown (numa_node is -1: the platform does not say)", source + "/numa_node",
               "the firmware does not report NUMA locality here (common in VMs); drop placement.gpu_nic_numa from "
               "this node's profile",
               Status::kWarn);
      else
        j.item(same != nullptr, part, "NIC on its NUMA node", true, same ? Json(same->name) : Json(),
               fmt::format("an RDMA NIC on NUMA node {}", g.numaNode),
               same ? same->name : fmt::format("none; the NICs are {}", nicList(nics, true)), source + "/numa_node",
               "the GPU has no RDMA NIC on its NUMA node, so its traffic crosses the CPU interconnect: check that "
               "the NICs sit in the slots the platform guide names and that the BIOS NUMA settings (NPS, SNC) match "
               "the fleet's");
    }
    if (p.placement.gpuNicPcieSwitch) {
      const HcaFacts* peer = nullptr;
      for (const HcaFacts* h : nics)
        if (!peer && sharesPcieSwitch(g, *h)) peer = h;
      j.item(peer != nullptr, part, "NIC on its PCIe switch", true, peer ? Json(peer->name) : Json(),
             "an RDMA NIC below the same PCIe switch",
             peer ? peer->name
             : g.chain.size() >= 3
                 ? fmt::format("none below its switch {}; the NICs are {}", g.chain[1], nicList(nics, false))
                 : fmt::format("none: the GPU has no PCIe switch above it; the NICs are {}", nicList(nics, false)),
             source,
             "the GPU shares no PCIe switch with an RDMA NIC, so GPUDirect RDMA goes through the root complex: check "
             "the card placement against the platform guide (`nvidia-smi topo -m` should show PIX or PXB) and "
             "reseat a NIC that moved");
    }
  }
}

}  // namespace pf::probes::profile_detail

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Writing the profile of a known-good node. Where its parts differ (one port at 2X among 4X ones), the profile
// takes the majority and says which part differs: a profile copied from a node with one bad cable must not
// declare that cable's rate the norm.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "profile/node_profile.hpp"
#include "profile/profile_judge_util.hpp"

namespace pf::probes {
namespace {

/// The most frequent value (the smallest among equally frequent ones), with the values that differ noted.
template <typename T>
std::optional<T> majority(const std::vector<std::pair<std::string, T>>& parts, const std::string& what,
                          std::vector<std::string>& notes) {
  std::map<T, int> n;
  for (const auto& [part, v] : parts) ++n[v];
  if (n.empty()) return std::nullopt;
  auto best = n.begin();
  for (auto it = n.begin(); it != n.end(); ++it)
    if (it->second > best->second) best = it;
  for (const auto& [part, v] : parts)
    if (!(v == best->first))
      notes.push_back(fmt::format("{}: {} {} differs from the other parts' {}; the profile takes theirs", part, what,
                                  fmt::to_string(v), fmt::to_string(best->first)));
  return best->first;
}

void rdmaSpec(const NodeFacts& f, const std::string& layer, RdmaSpec& s, std::vector<std::string>& notes) {
  std::vector<std::pair<std::string, double>> rates;
  std::vector<std::pair<std::string, long long>> widths, gens, lanes, mtus;
  std::vector<std::pair<std::string, std::string>> states;
  long long devices = 0, ports = 0;
  for (const HcaFacts& h : f.hcas) {
    if (h.linkLayer != layer) continue;
    ++devices;
    if (h.link && h.link->gen > 0) gens.emplace_back(h.name, h.link->gen);
    if (h.link && h.link->width > 0) lanes.emplace_back(h.name, h.link->width);
    for (const PortFacts& p : h.ports) {
      ++ports;
      const std::string part = fmt::format("{} port {}", h.name, p.num);
      if (p.rateGbit > 0) rates.emplace_back(part, p.rateGbit);
      if (p.width > 0) widths.emplace_back(part, p.width);
      states.emplace_back(part, p.state);
      if (p.mtu) mtus.emplace_back(part, *p.mtu);
    }
  }
  if (devices == 0) return;
  s.count = devices;
  s.ports = ports;
  s.rateGbit = majority(rates, "rate (Gb/s)", notes);
  s.width = majority(widths, "width (lanes)", notes);
  s.state = majority(states, "state", notes);
  s.pcieGen = majority(gens, "PCIe generation", notes);
  s.pcieWidth = majority(lanes, "PCIe width", notes);
  s.mtu = majority(mtus, "MTU", notes);
}

template <typename T>
void put(std::string& out, const char* key, const std::optional<T>& v) {
  if (!v) return;
  if constexpr (std::is_same_v<T, std::string>) {
    std::string quoted;  // TOML basic string: escape the quote and the backslash
    for (char c : *v) quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    out += fmt::format("{} = \"{}\"\n", key, quoted);
  } else
    out += fmt::format("{} = {}\n", key, *v);
}

void putRdma(std::string& out, const char* table, const char* what, const RdmaSpec& s) {
  if (!s.any()) return;
  out += fmt::format("\n[{}]  # {}\n", table, what);
  put(out, "count", s.count);
  put(out, "ports", s.ports);
  put(out, "rate_gbit", s.rateGbit);
  if (s.width) out += fmt::format("width = \"{}X\"\n", *s.width);
  put(out, "state", s.state);
  put(out, "pcie_gen", s.pcieGen);
  put(out, "pcie_width", s.pcieWidth);
  put(out, "mtu", s.mtu);
}

}  // namespace

NodeProfile profileFromFacts(const NodeFacts& f, std::vector<std::string>& notes) {
  NodeProfile p;
  if (!f.gpus.empty()) {
    std::vector<std::pair<std::string, std::string>> models;
    std::vector<std::pair<std::string, long long>> gens, lanes, mems, links;
    for (const GpuFacts& g : f.gpus) {
      const std::string part = "GPU " + g.bdf;
      models.emplace_back(part, g.model);
      if (g.link.gen > 0) gens.emplace_back(part, g.link.gen);
      if (g.link.width > 0) lanes.emplace_back(part, g.link.width);
      if (g.memoryMib) mems.emplace_back(part, *g.memoryMib);
      if (g.nvlinkActive) links.emplace_back(part, *g.nvlinkActive);
    }
    p.gpu.count = static_cast<long long>(f.gpus.size());
    p.gpu.model = majority(models, "model", notes);
    p.gpu.memoryMib = majority(mems, "memory (MiB)", notes);
    p.gpu.pcieGen = majority(gens, "PCIe generation", notes);
    p.gpu.pcieWidth = majority(lanes, "PCIe width", notes);
    p.gpu.nvlinkLinks = majority(links, "active NVLinks", notes);
    // Placement is declared only when every GPU of the known-good node has it (no majority: one GPU without a
    // NIC nearby is how the node was built, or a fault the emitting node should not pass on).
    const auto all = [&](auto pred) { return std::all_of(f.gpus.begin(), f.gpus.end(), pred); };
    p.placement.gpuNicNuma = all([&](const GpuFacts& g) { return profile_detail::nicOnNumaNode(g, f); });
    p.placement.gpuNicPcieSwitch = all([&](const GpuFacts& g) { return profile_detail::nicBelowSwitch(g, f); });
  }
  if (!f.driverVersion.empty()) p.gpu.driverMin = f.driverVersion;
  if (f.cudaDriver) p.cuda.driverMin = f.cudaDriver;
  rdmaSpec(f, "InfiniBand", p.ib, notes);
  rdmaSpec(f, "Ethernet", p.roce, notes);
  if (f.memlockFound) {
    p.host.memlockUnlimited = !f.memlockSoft;
    p.host.memlockBytes = f.memlockSoft;
  }
  p.host.shmBytes = f.shmBytes;
  p.host.transparentHugepages = f.transparentHugepages;
  if (!f.ncclVersion.empty()) p.nccl.versionMin = f.ncclVersion;
  return p;
}

std::string profileToToml(const NodeProfile& p, const std::string& fromHost) {
  std::string out = fmt::format(
      "# Preflight node profile (docs/probe.md, \"Node profiles\"), written by `preflight probe --emit-profile`\n"
      "# from node {}. Every key is optional: delete what should not be judged. Counts, rates, widths, PCIe,\n"
      "# memory, MTU, memlock and /dev/shm are minimums; versions take _min and _max.\n",
      fromHost);
  const auto& g = p.gpu;
  if (g.count || g.model || g.memoryMib || g.pcieGen || g.pcieWidth || g.nvlinkLinks || g.driverMin || g.driverMax) {
    out += "\n[gpu]\n";
    put(out, "count", g.count);
    put(out, "model", g.model);
    put(out, "memory_mib", g.memoryMib);
    put(out, "pcie_gen", g.pcieGen);
    put(out, "pcie_width", g.pcieWidth);
    put(out, "nvlink_links", g.nvlinkLinks);
    put(out, "driver_min", g.driverMin);
    put(out, "driver_max", g.driverMax);
  }
  if (p.cuda.driverMin) out += fmt::format("\n[cuda]\ndriver_min = \"{}\"\n", *p.cuda.driverMin);
  putRdma(out, "ib", "RDMA devices whose ports are InfiniBand", p.ib);
  if (p.placement.gpuNicNuma || p.placement.gpuNicPcieSwitch) {
    out += "\n[placement]  # every GPU of the emitting node has an RDMA NIC ...\n";
    if (p.placement.gpuNicNuma) out += "gpu_nic_numa = true  # ... on its NUMA node\n";
    if (p.placement.gpuNicPcieSwitch) out += "gpu_nic_pcie_switch = true  # ... below its PCIe switch\n";
  }
  putRdma(out, "roce", "RDMA devices whose ports are Ethernet (RoCE)", p.roce);
  const auto& h = p.host;
  if (h.memlockUnlimited || h.memlockBytes || h.shmBytes || h.transparentHugepages) {
    out += "\n[host]\n";
    if (h.memlockUnlimited) out += "memlock = \"unlimited\"\n";
    put(out, "memlock", h.memlockBytes);
    put(out, "shm_bytes", h.shmBytes);
    put(out, "transparent_hugepages", h.transparentHugepages);
  }
  if (p.nccl.versionMin || p.nccl.versionMax) {
    out += "\n[nccl]\n";
    put(out, "version_min", p.nccl.versionMin);
    put(out, "version_max", p.nccl.versionMax);
  }
  return out;
}

}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "ib/ib_devices.hpp"

#include <algorithm>
#include <cstdlib>

#include "pf/json_field.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

/// "4: ACTIVE" -> "ACTIVE" (the kernel prints the enum number, a colon, then the name).
std::string afterColon(const std::string& s) {
  auto c = s.find(':');
  return c == std::string::npos ? trim(s) : trim(s.substr(c + 1));
}

bool zeroGid(const std::string& g) { return g.find_first_not_of("0:") == std::string::npos; }

IbPort readPort(const SystemView& sys, const std::string& devDir, int num) {
  IbPort p;
  p.num = num;
  const std::string d = devDir + "/ports/" + std::to_string(num);
  p.state = afterColon(readText(sys, d + "/state"));
  p.physState = afterColon(readText(sys, d + "/phys_state"));
  p.rateText = readText(sys, d + "/rate");
  p.rateGbit = parseRateGbit(p.rateText);
  p.linkLayer = readText(sys, d + "/link_layer");
  p.lid = readText(sys, d + "/lid");
  for (const auto& idx : sys.list(d + "/gids")) {
    auto i = parseInt(idx);
    if (!i) continue;
    IbGid g;
    g.index = static_cast<int>(*i);
    g.gid = readText(sys, d + "/gids/" + idx);
    if (g.gid.empty() || zeroGid(g.gid)) continue;
    g.type = readText(sys, d + "/gid_attrs/types/" + idx);
    g.ndev = readText(sys, d + "/gid_attrs/ndevs/" + idx);
    p.gids.push_back(std::move(g));
  }
  std::sort(p.gids.begin(), p.gids.end(), [](const IbGid& a, const IbGid& b) { return a.index < b.index; });
  // The port's interface: RoCE GIDs name it; otherwise the PCI function's net/ directory (IPoIB, EFA has none).
  for (const auto& g : p.gids)
    if (!g.ndev.empty()) {
      p.netdev = g.ndev;
      break;
    }
  if (p.netdev.empty()) {
    auto nets = sys.list(devDir + "/device/net");
    // A dual-port function lists one netdev per port; dev_port (0-based) says which.
    for (const auto& n : nets) {
      auto devPort = readInt(sys, devDir + "/device/net/" + n + "/dev_port");
      if (nets.size() == 1 || (devPort && *devPort == num - 1)) {
        p.netdev = n;
        break;
      }
    }
  }
  if (p.linkLayer == "Ethernet" && !p.netdev.empty())
    if (auto mtu = readInt(sys, "/sys/class/net/" + p.netdev + "/mtu")) {
      // RoCE's MTU is the largest IB MTU (256..4096) that fits in the netdev's MTU minus the RoCE headers.
      int ib = 0;
      for (int m : {256, 512, 1024, 2048, 4096})
        if (m + 58 <= *mtu) ib = m;  // 58 = Ethernet + IP + UDP + IB BTH/ICRC, rounded up (RoCE v2)
      if (ib > 0) p.activeMtu = ib;
    }
  return p;
}

}  // namespace

double parseRateGbit(const std::string& rate) {
  char* end = nullptr;
  double v = std::strtod(rate.c_str(), &end);
  return end == rate.c_str() ? 0 : v;
}

bool isEfaPci(const PciFunction& f) { return f.vendor == 0x1d0f && (f.device & 0xfff0) == 0xefa0; }

bool isEfa(const IbDevice& d) { return d.pci && (d.pci->driver == "efa" || isEfaPci(*d.pci)); }

std::vector<PciFunction> pciWithoutRdma(const SystemView& sys, const RdmaStack& stack,
                                        const std::function<bool(const PciFunction&)>& want) {
  std::vector<PciFunction> out;
  for (auto& f : readPciFunctions(sys)) {
    if (!want(f)) continue;
    const bool claimed = std::any_of(stack.devices.begin(), stack.devices.end(),
                                     [&](const IbDevice& d) { return d.pci && d.pci->bdf == f.bdf; });
    if (!claimed) out.push_back(std::move(f));
  }
  return out;
}

NcclIbPorts selectNcclIbPorts(const std::vector<IbDevice>& devices, const std::optional<std::string>& ibHca) {
  std::vector<HcaPort> all;
  for (const auto& d : devices)
    if (!isEfa(d))
      for (const auto& p : d.ports) all.push_back({d.name, p.num});
  NcclIbPorts out;
  out.selection = resolveIbHca(ibHca, all);
  for (const auto& hp : out.selection.selected)
    for (const auto& d : devices)
      if (d.name == hp.device && !isEfa(d))
        for (const auto& p : d.ports)
          if (p.num == hp.port) out.ports.emplace_back(&d, &p);
  return out;
}

RdmaStack readRdmaStack(const SystemView& sys) {
  RdmaStack s;
  s.uverbsModule = sys.exists("/sys/module/ib_uverbs");
  for (const auto& n : sys.list("/dev/infiniband"))
    if (n.rfind("uverbs", 0) == 0) s.devNodes.push_back(n);
  if (auto v = sys.read("/sys/module/mlx5_core/version")) s.ofedVersion = trim(*v);
  for (const auto& name : sys.list("/sys/class/infiniband")) {
    IbDevice d;
    d.name = name;
    const std::string dir = "/sys/class/infiniband/" + name;
    d.nodeType = readText(sys, dir + "/node_type");
    d.fwVer = readText(sys, dir + "/fw_ver");
    d.hcaType = readText(sys, dir + "/hca_type");
    d.boardId = readText(sys, dir + "/board_id");
    d.pci = pciOfClassDevice(sys, dir);
    for (const auto& p : sys.list(dir + "/ports"))
      if (auto num = parseInt(p)) d.ports.push_back(readPort(sys, dir, static_cast<int>(*num)));
    std::sort(d.ports.begin(), d.ports.end(), [](const IbPort& a, const IbPort& b) { return a.num < b.num; });
    s.devices.push_back(std::move(d));
  }
  for (const auto& u : sys.list("/sys/class/infiniband_verbs")) {
    auto ibdev = sys.read("/sys/class/infiniband_verbs/" + u + "/ibdev");
    if (!ibdev) continue;
    for (auto& d : s.devices)
      if (d.name == trim(*ibdev)) d.uverbs = u;
  }
  return s;
}

Json portRow(const IbDevice& d, const IbPort& p) {
  Json gids = Json::array();
  for (const auto& g : p.gids) {
    Json j{{"index", g.index}, {"gid", g.gid}};
    if (!g.type.empty()) j["type"] = g.type;
    if (!g.ndev.empty()) j["ndev"] = g.ndev;
    gids.push_back(std::move(j));
  }
  return Json{{"device", d.name},
              {"port", p.num},
              {"state", p.state},
              {"phys_state", p.physState},
              {"rate_gbit", p.rateGbit},
              {"rate", p.rateText},
              {"link_layer", p.linkLayer},
              {"lid", p.linkLayer == "InfiniBand" ? Json(p.lid) : Json()},
              {"active_mtu", p.activeMtu ? Json(*p.activeMtu) : Json()},
              {"netdev", jsonOrNull(p.netdev)},
              {"is_vf", d.pci && isVirtualFunction(*d.pci)},
              {"pci", d.pci ? Json(d.pci->bdf) : Json()},
              {"numa_node", d.pci && d.pci->numaNode >= 0 ? Json(d.pci->numaNode) : Json()},
              {"fw_ver", d.fwVer},
              {"uverbs", jsonOrNull(d.uverbs)},
              {"gids", gids}};
}

}  // namespace pf::probes

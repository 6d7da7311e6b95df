// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pci.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "pf/json_field.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

bool isBdf(const std::string& s) {
  static const std::regex re("^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]$");
  return std::regex_match(s, re);
}

unsigned readHex(const SystemView& sys, const std::string& abs) {
  auto v = sys.read(abs);
  if (!v) return 0;
  return static_cast<unsigned>(std::strtoul(trim(*v).c_str(), nullptr, 16));
}

}  // namespace

std::optional<PciFunction> readPciFunction(const SystemView& sys, const std::string& bdf) {
  PciFunction f;
  f.bdf = bdf;
  f.sysfsDir = "/sys/bus/pci/devices/" + bdf;
  if (!sys.exists(f.sysfsDir)) return std::nullopt;
  const std::string& d = f.sysfsDir;
  f.vendor = readHex(sys, d + "/vendor");
  f.device = readHex(sys, d + "/device");
  f.classCode = readHex(sys, d + "/class");
  f.driver = sys.linkName(d + "/driver").value_or("");
  f.numaNode = static_cast<int>(readInt(sys, d + "/numa_node").value_or(-1));
  f.localCpus = readText(sys, d + "/local_cpulist");
  f.curLinkSpeed = readText(sys, d + "/current_link_speed");
  f.maxLinkSpeed = readText(sys, d + "/max_link_speed");
  f.curLinkWidth = static_cast<int>(readInt(sys, d + "/current_link_width").value_or(0));
  f.maxLinkWidth = static_cast<int>(readInt(sys, d + "/max_link_width").value_or(0));
  f.physfn = sys.linkName(d + "/physfn");
  f.sriovTotalVfs = static_cast<int>(readInt(sys, d + "/sriov_totalvfs").value_or(-1));
  f.sriovNumVfs = static_cast<int>(readInt(sys, d + "/sriov_numvfs").value_or(-1));
  for (const auto& e : sys.list(d))
    if (e.rfind("virtfn", 0) == 0)
      if (auto vf = sys.linkName(d + "/" + e)) f.virtfns.push_back(*vf);
  // The ancestry: the link's target lists every bridge from the root complex down.
  if (auto target = sys.readLink(d)) {
    std::string prev;
    for (const auto& part : splitList(*target, "/")) {
      if (isBdf(part)) {
        if (f.chain.empty()) f.rootComplex = prev;
        f.chain.push_back(part);
      } else if (!f.chain.empty()) {
        break;  // past the device itself
      }
      prev = part;
    }
  }
  if (f.chain.empty() || f.chain.back() != bdf) f.chain = {bdf};
  return f;
}

std::vector<PciFunction> readPciFunctions(const SystemView& sys) {
  std::vector<PciFunction> out;
  for (const auto& bdf : sys.list("/sys/bus/pci/devices"))
    if (auto f = readPciFunction(sys, bdf)) out.push_back(std::move(*f));
  return out;
}

std::optional<PciFunction> pciOfClassDevice(const SystemView& sys, const std::string& classDeviceDir) {
  auto name = sys.linkName(classDeviceDir + "/device");
  if (!name) return std::nullopt;
  if (!isBdf(*name)) {  // a link written as "../.." (tools that copy sysfs do this): resolve it
    std::error_code ec;
    name = std::filesystem::weakly_canonical(sys.path(classDeviceDir + "/device"), ec).filename().string();
    if (ec || !isBdf(*name)) return std::nullopt;
  }
  return readPciFunction(sys, *name);
}

int pcieGeneration(const std::string& speed) {
  // GT/s per lane -> generation (PCI-SIG): 2.5 Gen1, 5 Gen2, 8 Gen3, 16 Gen4, 32 Gen5, 64 Gen6.
  double gts = std::atof(speed.c_str());
  if (gts <= 0) return 0;
  const double rates[] = {2.5, 5, 8, 16, 32, 64};
  for (int i = 0; i < 6; ++i)
    if (gts < rates[i] * 1.1) return i + 1;
  return 0;
}

PciPath pciPath(const PciFunction& a, const PciFunction& b) {
  if (a.bdf == b.bdf) return PciPath::kSelf;
  const bool bothNuma = a.numaNode >= 0 && b.numaNode >= 0;
  if (bothNuma && a.numaNode != b.numaNode) return PciPath::kSys;
  if (a.rootComplex.empty() || b.rootComplex.empty()) return PciPath::kUnknown;
  if (a.rootComplex != b.rootComplex) return bothNuma ? PciPath::kPhb : PciPath::kUnknown;
  size_t common = 0;
  while (common < a.chain.size() && common < b.chain.size() && a.chain[common] == b.chain[common]) ++common;
  if (common == 0) return PciPath::kPhb;  // different root ports of one host bridge
  // The deepest shared bridge is chain[common-1]. Behind one switch, each device hangs off a downstream port of
  // the switch whose upstream port is that shared bridge: exactly two more hops (port, device) on both sides.
  // A root port shared directly (common == 1) is part of the host bridge, not a switch.
  const bool sharedIsSwitch = common >= 2;
  if (sharedIsSwitch && a.chain.size() - common == 2 && b.chain.size() - common == 2) return PciPath::kPix;
  return PciPath::kPxb;
}

std::string pciPathName(PciPath p) {
  switch (p) {
    case PciPath::kSelf: return "self";
    case PciPath::kPix: return "PIX";
    case PciPath::kPxb: return "PXB";
    case PciPath::kPhb: return "PHB";
    case PciPath::kSys: return "SYS";
    case PciPath::kUnknown: break;
  }
  return "unknown";
}

std::string pciPathDescription(PciPath p) {
  switch (p) {
    case PciPath::kSelf: return "the same device";
    case PciPath::kPix: return "behind the same PCIe switch";
    case PciPath::kPxb: return "through several PCIe switches, not the CPU";
    case PciPath::kPhb: return "through the CPU's PCIe host bridge";
    case PciPath::kSys: return "across the inter-socket link";
    case PciPath::kUnknown: break;
  }
  return "unknown: sysfs gives no PCI ancestry or NUMA node";
}

std::string hexId(unsigned v, int width) { return fmt::format("0x{:0{}x}", v, width); }

Json toJson(const PciFunction& f) {
  Json j{{"bdf", f.bdf}, {"vendor", hexId(f.vendor)}, {"device", hexId(f.device)}, {"class", hexId(f.classCode, 6)}};
  j["driver"] = jsonOrNull(f.driver);
  j["numa_node"] = f.numaNode >= 0 ? Json(f.numaNode) : Json();
  if (!f.curLinkSpeed.empty()) {
    j["pcie_gen"] = pcieGeneration(f.curLinkSpeed);
    j["pcie_width"] = f.curLinkWidth;
    j["pcie_gen_max"] = pcieGeneration(f.maxLinkSpeed);
    j["pcie_width_max"] = f.maxLinkWidth;
  }
  return j;
}

}  // namespace pf::probes

namespace pf::probes {
bool isVirtualFunction(const PciFunction& f) {
  if (f.physfn) return true;
  if (f.vendor != 0x15b3) return false;
  switch (f.device) {
    case 0x1012:
    case 0x1014:
    case 0x1016:
    case 0x1018:
    case 0x101a:
    case 0x101c:
    case 0x101e:
    case 0xa2d3: return true;
    default: return false;
  }
}
}  // namespace pf::probes

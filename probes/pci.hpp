// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// PCI functions as sysfs shows them (Documentation/ABI/testing/sysfs-bus-pci): /sys/bus/pci/devices/<BDF> is
// a link into /sys/devices whose path is the device's ancestry, root complex first
// ("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0"). The GPU, IB, SR-IOV, p2p and topo probes all
// read PCI facts through this one module, and the distance between two functions is computed from that
// ancestry the way NCCL's topology search and `nvidia-smi topo -m` name it (PIX, PXB, PHB, SYS).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pf/result.hpp"
#include "system_view.hpp"

namespace pf::probes {

struct PciFunction {
  std::string bdf;                         ///< "0000:01:00.0"
  std::string sysfsDir;                    ///< "/sys/bus/pci/devices/0000:01:00.0"
  unsigned vendor = 0, device = 0;         ///< 0x15b3, 0x1021
  unsigned classCode = 0;                  ///< 0x020700 (base class, subclass, prog-if)
  std::string driver;                      ///< bound driver ("mlx5_core", "nvidia"); empty when none
  int numaNode = -1;                       ///< -1 when the platform does not say
  std::string localCpus;                   ///< local_cpulist, e.g. "0-47"
  std::string curLinkSpeed, maxLinkSpeed;  ///< "32.0 GT/s PCIe"
  int curLinkWidth = 0, maxLinkWidth = 0;
  std::string rootComplex;            ///< the path component above the first BDF: "pci0000:00", a VMBus device, ...
  std::vector<std::string> chain;     ///< BDFs from the root port down to this function (this one last)
  std::optional<std::string> physfn;  ///< the PF's BDF when this is an SR-IOV virtual function
  int sriovTotalVfs = -1, sriovNumVfs = -1;  ///< -1 when the function is not SR-IOV capable
  std::vector<std::string> virtfns;          ///< the VFs' BDFs (virtfn0, virtfn1, ...)
};

/// Reads one function; nullopt when /sys/bus/pci/devices/<bdf> is missing.
std::optional<PciFunction> readPciFunction(const SystemView& sys, const std::string& bdf);
/// Every function under /sys/bus/pci/devices, in BDF order.
std::vector<PciFunction> readPciFunctions(const SystemView& sys);
/// The PCI function behind a class device ("/sys/class/infiniband/mlx5_0/device"); nullopt when it is not PCI.
std::optional<PciFunction> pciOfClassDevice(const SystemView& sys, const std::string& classDeviceDir);

/// "PCIe 5 x16" style text from a sysfs speed ("32.0 GT/s PCIe") and width; the generation is 0 when unknown.
int pcieGeneration(const std::string& speed);

/// NCCL's path types between two PCI functions, nearest first. kNvLink is never derived from PCI.
enum class PciPath { kSelf, kPix, kPxb, kPhb, kSys, kUnknown };
/// PIX: both behind one PCIe switch; PXB: several switches, no host bridge; PHB: through the CPU's host bridge;
/// SYS: across the SMP interconnect between sockets (different NUMA nodes or root complexes on different nodes).
PciPath pciPath(const PciFunction& a, const PciFunction& b);
std::string pciPathName(PciPath p);         ///< "PIX", "PXB", "PHB", "SYS", "self", "unknown"
std::string pciPathDescription(PciPath p);  ///< "same PCIe switch", ...

/// The facts a result shows for a function (bdf, ids, driver, numa, link).
Json toJson(const PciFunction& f);
/// "0x15b3" from a number.
std::string hexId(unsigned v, int width = 4);

}  // namespace pf::probes

namespace pf::probes {
/// True for an SR-IOV virtual function: sysfs links it to its PF (physfn) on the host that owns the PF; inside a
/// VM there is no PF to link to, so the device id says it (the kernel's mlx5_core_pci_table marks these ids
/// MLX5_PCI_DEV_IS_VF: Connect-IB, ConnectX-4/4 Lx/5/5 Ex/6 VFs, the ConnectX mlx5Gen VF of ConnectX-6 Dx and
/// later, BlueField's VF).
bool isVirtualFunction(const PciFunction& f);
}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// RDMA devices as the kernel's sysfs shows them (Documentation/ABI/stable/sysfs-class-infiniband):
// /sys/class/infiniband/<dev>/{node_type,fw_ver,hca_type,board_id,device} and ports/<n>/{state,phys_state,rate,
// link_layer,lid,gids/<i>,gid_attrs/types/<i>,gid_attrs/ndevs/<i>}; user-space access needs the ib_uverbs
// module and /dev/infiniband/uverbs<N> (/sys/class/infiniband_verbs/uverbs<N>/ibdev names the device).
// InfiniBand HCAs, RoCE NICs and AWS EFA all appear here; the ib and efa probes split them by driver.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ib/ib_hca_filter.hpp"
#include "pci.hpp"
#include "pf/result.hpp"
#include "system_view.hpp"

namespace pf::probes {

struct IbGid {
  int index = 0;
  std::string gid;   ///< "fe80:0000:0000:0000:0e42:a1ff:fe9b:1e2a"
  std::string type;  ///< "IB/RoCE v1", "RoCE v2"; empty on InfiniBand ports
  std::string ndev;  ///< the netdev the RoCE GID belongs to; empty on InfiniBand
  bool linkLocal() const { return gid.rfind("fe80:", 0) == 0; }
  bool ipv4Mapped() const { return gid.rfind("0000:0000:0000:0000:0000:ffff:", 0) == 0; }
};

struct IbPort {
  int num = 1;
  std::string state;             ///< "ACTIVE", "DOWN", "INIT", "ARMED" (the text after "4: ")
  std::string physState;         ///< "LinkUp", "Polling", "Disabled", ...
  std::string rateText;          ///< "400 Gb/sec (4X NDR)"
  double rateGbit = 0;           ///< 400
  std::string linkLayer;         ///< "InfiniBand", "Ethernet" (RoCE), "Unspecified" (EFA)
  std::string lid;               ///< "0x1a"; meaningless on RoCE
  std::string netdev;            ///< the port's Ethernet/IPoIB interface, when sysfs names one
  std::optional<int> activeMtu;  ///< bytes; from libibverbs on a live node, from the netdev's MTU on RoCE
  std::vector<IbGid> gids;       ///< non-zero GIDs only
  bool active() const { return state == "ACTIVE"; }
};

struct IbDevice {
  std::string name;  ///< mlx5_0, rdmap16s27
  std::string nodeType, fwVer, hcaType, boardId;
  std::optional<PciFunction> pci;
  std::vector<IbPort> ports;
  std::string uverbs;  ///< "uverbs0" when a verbs node exists for it
};

struct RdmaStack {
  std::vector<IbDevice> devices;
  bool uverbsModule = false;          ///< /sys/module/ib_uverbs
  std::vector<std::string> devNodes;  ///< /dev/infiniband/uverbs*
  std::string ofedVersion;            ///< MLNX_OFED/DOCA-OFED's /sys/module/mlx5_core/version; "inbox" otherwise
};

/// Reads every device under /sys/class/infiniband with its ports and GIDs.
RdmaStack readRdmaStack(const SystemView& sys);

/// Number from "400 Gb/sec (4X NDR)"; 0 when it does not parse.
double parseRateGbit(const std::string& rate);

/// One row per port (keys: device, port, state, phys_state, rate_gbit, rate, link_layer, lid, active_mtu,
/// netdev, is_vf, pci, numa_node, fw_ver, gids).
Json portRow(const IbDevice& d, const IbPort& p);

/// True for an Amazon EFA PCI function (vendor 0x1d0f, device 0xefa0-0xefaf).
bool isEfaPci(const PciFunction& f);
/// True for EFA devices (driver "efa", or an EFA PCI function).
bool isEfa(const IbDevice& d);

/// The PCI functions `want` selects that no RDMA device of `stack` sits on: the hardware is there, its RDMA
/// driver is not.
std::vector<PciFunction> pciWithoutRdma(const SystemView& sys, const RdmaStack& stack,
                                        const std::function<bool(const PciFunction&)>& want);

using DevicePort = std::pair<const IbDevice*, const IbPort*>;
/// The ports NCCL's IB transport would use under NCCL_IB_HCA (EFA devices are not its ports), in selection order.
struct NcclIbPorts {
  HcaSelection selection;
  std::vector<DevicePort> ports;
};
NcclIbPorts selectNcclIbPorts(const std::vector<IbDevice>& devices, const std::optional<std::string>& ibHca);

}  // namespace pf::probes

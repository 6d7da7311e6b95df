// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The node's network interfaces as sysfs and procfs describe them (Documentation/ABI/testing/sysfs-class-net):
// /sys/class/net/<if>/{ifindex,operstate,flags,mtu,address,type,speed,carrier}, a `device` link for hardware
// and a target under devices/virtual/ for software interfaces. IP addresses come from procfs: IPv6 from
// /proc/net/if_inet6, IPv4 from the "/32 host LOCAL" entries of /proc/net/fib_trie matched to an interface by
// its connected route in /proc/net/route (loopback addresses belong to `lo`). On a live node getifaddrs()
// is read too, because that is what NCCL calls; the two are compared.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pf/result.hpp"
#include "system_view.hpp"

namespace pf::probes {

/// One address of one interface, in the order getifaddrs() would list it (IPv4, then IPv6).
struct IfAddr {
  std::string ifname;
  int family = 4;          ///< 4 or 6
  std::string addr;        ///< printable
  int prefixLen = -1;      ///< -1 when unknown
  bool linkLocal = false;  ///< 169.254/16 or fe80::/10
  bool loopback = false;   ///< 127/8 or ::1
};

struct NetInterface {
  std::string name;
  int ifindex = 0;
  std::string operstate;  ///< "up", "down", "unknown" (loopback and some virtual NICs), ...
  bool adminUp = false;   ///< IFF_UP in flags
  int mtu = 0;
  std::string mac;
  int type = 0;  ///< ARPHRD_*: 1 Ethernet, 32 InfiniBand (IPoIB), 772 loopback
  std::optional<long long> speedMbps;
  std::string driver;       ///< from device/driver, empty for virtual
  bool isVirtual = false;   ///< software interface: no device behind it
  std::string virtualKind;  ///< "loopback", "docker", "veth", "virbr", "bridge", ... or empty
  std::vector<IfAddr> addrs;

  /// Usable for traffic to other nodes: administratively up and not operationally down.
  bool usable() const { return adminUp && operstate != "down" && operstate != "lowerlayerdown"; }
};

/// Interfaces sorted by ifindex with their procfs addresses.
std::vector<NetInterface> readInterfaces(const SystemView& sys);

/// Every address in getifaddrs() order as seen from procfs (for captured trees).
std::vector<IfAddr> addressesFromProcfs(const std::vector<NetInterface>& ifs);

/// getifaddrs() of the calling process's network namespace (live nodes only).
std::vector<IfAddr> addressesFromGetifaddrs();

/// One JSON row per interface for Result.rows.
Json toJson(const NetInterface& i);

}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// net: the node's interfaces (state, MTU, addresses, virtual or not) and the ones NCCL's sockets would use
// (bootstrap, NET/Socket) under NCCL_SOCKET_IFNAME / NCCL_SOCKET_FAMILY / NCCL_COMM_ID, resolved as NCCL does.
// Fails when nothing usable matches (NCCL: "no socket interface found"), warns when only virtual, loopback or
// link-local interfaces match (the job may start on one node and hang across nodes).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>

#include "nccl/nccl_conf.hpp"
#include "nccl/nccl_ifname.hpp"
#include "net/net_interfaces.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

const NetInterface* byName(const std::vector<NetInterface>& ifs, const std::string& n) {
  for (const auto& i : ifs)
    if (i.name == n) return &i;
  return nullptr;
}

std::string describeIf(const NetInterface& i) {
  std::vector<std::string> a;
  for (const auto& x : i.addrs) a.push_back(x.prefixLen >= 0 ? fmt::format("{}/{}", x.addr, x.prefixLen) : x.addr);
  return fmt::format("{} ({}{}, mtu {}{})", i.name, i.operstate, i.isVirtual ? ", " + i.virtualKind : "", i.mtu,
                     a.empty() ? "" : fmt::format(", {}", fmt::join(a, " ")));
}

/// The interface to suggest: an up, physical one with a non-link-local address, else any non-loopback one.
std::string suggestion(const std::vector<NetInterface>& ifs) {
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& i : ifs) {
      if (i.virtualKind == "loopback" || !i.usable()) continue;
      if (pass == 0 && i.isVirtual) continue;
      for (const auto& a : i.addrs)
        if (!a.linkLocal && !a.loopback) return i.name;
    }
  return "";
}

bool onlyLinkLocal(const NetInterface& i) {
  bool any = false;
  for (const auto& a : i.addrs) {
    if (!a.linkLocal) return false;
    any = true;
  }
  return any;
}

/// Judges NCCL's selection: fail when nothing (usable) matches, warn when only virtual or link-local does.
void judgeSelection(const IfSelection& sel, const std::vector<NetInterface>& ifs, const NcclSettings& nccl,
                    Findings& f) {
  const std::string fix = suggestion(ifs);
  const std::string setting = nccl.describe("NCCL_SOCKET_IFNAME");
  const std::string fixText = fix.empty()
                                  ? "give this node an interface with an IP address that reaches the other nodes"
                                  : fmt::format(
                                        "set NCCL_SOCKET_IFNAME=={} (the '=' makes it an exact name) or to a prefix "
                                        "that matches it on every node{}",
                                        fix, sel.userSet ? ", or unset it to let NCCL choose" : "");
  std::vector<std::string> have;
  for (const auto& i : ifs)
    if (!i.addrs.empty()) have.push_back(i.name);
  if (sel.interfaces.empty()) {
    f.add(Status::kFail,
          sel.userSet ? fmt::format("{} matches no interface with an IP address on this node (interfaces with "
                                    "addresses: {}); NCCL will fail with \"no socket interface found\"",
                                    setting, have.empty() ? "none" : fmt::format("{}", fmt::join(have, ", ")))
                      : "no interface has an IP address: NCCL cannot bootstrap",
          fixText);
    return;
  }
  std::vector<const NetInterface*> chosen;
  for (const auto& n : sel.interfaces)
    if (const NetInterface* i = byName(ifs, n)) chosen.push_back(i);
  bool anyUsable = false, anyGood = false;
  for (const NetInterface* i : chosen) {
    anyUsable |= i->usable();
    anyGood |= i->usable() && !i->isVirtual && !onlyLinkLocal(*i);
  }
  const std::string names = fmt::format("{}", fmt::join(sel.interfaces, ", "));
  if (!chosen.empty() && !anyUsable) {
    f.add(Status::kFail,
          fmt::format("{} selects {}, which is down: NCCL would pick it and fail to connect", setting, names),
          fixText + ", or bring the interface up (ip link set DEV up)");
    return;
  }
  if (!anyGood) {
    bool loopOnly = std::all_of(chosen.begin(), chosen.end(), [](auto* i) { return i->virtualKind == "loopback"; });
    f.add(Status::kWarn,
          fmt::format("NCCL would use only {} ({}): {}", names, sel.rule,
                      loopOnly ? "loopback cannot reach other nodes"
                               : "virtual or link-local interfaces often do not route between nodes"),
          fix.empty() || std::find(sel.interfaces.begin(), sel.interfaces.end(), fix) != sel.interfaces.end()
              ? "make sure these interfaces reach the other nodes (e.g. `preflight check`), or set "
                "NCCL_SOCKET_IFNAME to the interface that does"
              : fixText);
  }
}

/// The IPv4 subnet of the interface NCCL's bootstrap would use (the first selected), e.g. "10.0.0.0/24": nodes
/// that bootstrap from different subnets may not reach each other. Null when unknown or IPv6-only.
Json bootstrapSubnet(const IfSelection& sel, const std::vector<NetInterface>& ifs) {
  if (sel.interfaces.empty()) return nullptr;
  const NetInterface* i = byName(ifs, sel.interfaces.front());
  if (!i) return nullptr;
  for (const auto& a : i->addrs) {
    if (a.family != 4 || a.prefixLen < 0) continue;
    unsigned b[4] = {};
    if (std::sscanf(a.addr.c_str(), "%u.%u.%u.%u", &b[0], &b[1], &b[2], &b[3]) != 4) continue;
    uint32_t ip = (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
    uint32_t mask = a.prefixLen == 0 ? 0 : 0xffffffffu << (32 - a.prefixLen);
    ip &= mask;
    return fmt::format("{}.{}.{}.{}/{}", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255, a.prefixLen);
  }
  return nullptr;
}

class NetProbe final : public Probe {
 public:
  std::string description() const override {
    return "interfaces, MTU, addresses; the interfaces NCCL_SOCKET_IFNAME / NCCL_OOB_NET_IFNAME select";
  }

  Result run(const SystemView& sys, const ProbeOptions&) const override {
    Result r;
    auto ifs = readInterfaces(sys);
    addEvidence(r, "interfaces", static_cast<int>(ifs.size()), "/sys/class/net");
    if (ifs.empty()) {
      r.status = Status::kError;
      r.message = "no interfaces under /sys/class/net: sysfs is not mounted or the tree holds no network";
      r.remedy = "mount sysfs in the container (-v /sys:/sys:ro) or capture /sys/class/net";
      return r;
    }
    for (const auto& i : ifs) r.rows.push_back(toJson(i));
    NcclSettings nccl = readNcclSettings(sys);
    Findings f;

    // Addresses: what NCCL itself sees (getifaddrs) on a live node, procfs otherwise; compare the two.
    std::vector<IfAddr> procAddrs = addressesFromProcfs(ifs);
    std::vector<IfAddr> addrs = procAddrs;
    if (sys.isLive()) {
      addrs = addressesFromGetifaddrs();
      compareSources(procAddrs, addrs, r, f);
    }
    addEvidence(r, "addresses", static_cast<int>(addrs.size()),
                sys.isLive() ? "getifaddrs()" : "/proc/net/fib_trie, /proc/net/route, /proc/net/if_inet6");

    IfSelection sel = resolveSocketIfname(nccl.get("NCCL_SOCKET_IFNAME"), nccl.get("NCCL_SOCKET_FAMILY"),
                                          nccl.get("NCCL_COMM_ID"), addrs);
    for (const auto& note : sel.notes) f.add(Status::kWarn, note, "fix or unset the variable");
    judgeSelection(sel, ifs, nccl, f);
    r.params["settings"] = Json::object();
    for (const char* v :
         {"NCCL_SOCKET_IFNAME", "NCCL_SOCKET_FAMILY", "NCCL_COMM_ID", "NCCL_OOB_NET_ENABLE", "NCCL_OOB_NET_IFNAME"})
      if (auto val = nccl.get(v)) r.params["settings"][v] = *val;
    r.params["nccl_socket_interfaces"] = sel.interfaces;
    r.params["nccl_socket_rule"] = sel.rule;
    r.params["bootstrap_subnet"] = bootstrapSubnet(sel, ifs);
    addEvidence(r, "NCCL socket interfaces", sel.interfaces, sel.rule);
    checkOob(sys, nccl, ifs, r, f);

    int physUp = 0, minMtu = 0;
    for (const auto& i : ifs) physUp += (!i.isVirtual && i.usable()) ? 1 : 0;
    for (const auto& n : sel.interfaces)
      if (const NetInterface* i = byName(ifs, n); i && (minMtu == 0 || i->mtu < minMtu)) minMtu = i->mtu;
    r.metrics["interface_count"] = static_cast<int>(ifs.size());
    r.metrics["physical_up_count"] = physUp;
    r.metrics["selected_mtu"] = minMtu > 0 ? Json(minMtu) : Json();
    std::vector<std::string> used;
    for (const auto& n : sel.interfaces)
      if (const NetInterface* i = byName(ifs, n)) used.push_back(describeIf(*i));
    f.apply(r, fmt::format("NCCL sockets would use {} ({})", fmt::join(used, "; "), sel.rule));
    return r;
  }

 private:
  /// getifaddrs() and procfs should list the same addresses; a difference means one of them is not
  /// telling the truth about this namespace (a container with a foreign /proc, a half-configured interface).
  static void compareSources(const std::vector<IfAddr>& proc, const std::vector<IfAddr>& live, Result& r, Findings& f) {
    std::set<std::string> a, b;
    for (const auto& x : proc) a.insert(x.ifname + " " + x.addr);
    for (const auto& x : live) b.insert(x.ifname + " " + x.addr);
    if (a == b) return;
    std::vector<std::string> onlyProc, onlyLive;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(onlyProc));
    std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(onlyLive));
    addEvidence(r, "addresses only in procfs", onlyProc, "/proc/net/fib_trie, /proc/net/if_inet6");
    addEvidence(r, "addresses only in getifaddrs()", onlyLive, "getifaddrs()");
    f.add(Status::kWarn,
          fmt::format("procfs and getifaddrs() disagree about addresses (only procfs: {}; only getifaddrs: {})",
                      fmt::join(onlyProc, ", "), fmt::join(onlyLive, ", ")),
          "check that /proc belongs to this network namespace (containers: do not bind-mount the host's /proc)");
  }

  /// NCCL_OOB_NET_IFNAME names the net device for the bootstrap when NCCL_OOB_NET_ENABLE=1 (2.23+): interface
  /// names for the socket net, HCA names with :port for IB. Same list syntax as NCCL_SOCKET_IFNAME.
  static void checkOob(const SystemView& sys, const NcclSettings& nccl, const std::vector<NetInterface>& ifs, Result& r,
                       Findings& f) {
    auto value = nccl.get("NCCL_OOB_NET_IFNAME");
    if (!value) return;
    IfList list = parseIfList(*value);
    std::vector<std::string> matched;
    for (const auto& i : ifs)
      if (!i.addrs.empty() && (matchIfList(i.name, -1, list) ^ list.exclude)) matched.push_back(i.name);
    for (const auto& dev : sys.list("/sys/class/infiniband"))
      for (const auto& port : sys.list("/sys/class/infiniband/" + dev + "/ports"))
        if (matchIfList(dev, std::atoi(port.c_str()), list) ^ list.exclude) matched.push_back(dev + ":" + port);
    addEvidence(r, "NCCL_OOB_NET_IFNAME matches", matched, "/sys/class/net, /sys/class/infiniband");
    const bool enabled = nccl.get("NCCL_OOB_NET_ENABLE") == "1";
    if (!matched.empty()) return;
    if (enabled)
      f.add(Status::kFail,
            fmt::format("{} matches no network device on this node while NCCL_OOB_NET_ENABLE=1",
                        nccl.describe("NCCL_OOB_NET_IFNAME")),
            "set NCCL_OOB_NET_IFNAME to an existing interface or HCA (e.g. =mlx5_0:1), or unset it");
    else
      f.add(Status::kWarn,
            fmt::format("{} matches no network device (unused: NCCL_OOB_NET_ENABLE is not 1)",
                        nccl.describe("NCCL_OOB_NET_IFNAME")),
            "unset NCCL_OOB_NET_IFNAME or point it at an existing device");
  }
};

PF_REGISTER_PROBE(NetProbe, "net");

}  // namespace
}  // namespace pf::probes

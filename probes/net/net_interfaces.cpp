// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "net/net_interfaces.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <sstream>

#include "pf/json_field.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

/// Software interfaces named by convention; the sysfs path decides virtual-or-not, the name only the kind.
std::string kindByName(const std::string& n) {
  if (n == "lo") return "loopback";
  if (startsWith(n, "docker")) return "docker";
  if (startsWith(n, "veth")) return "veth";
  if (startsWith(n, "virbr")) return "virbr";
  if (startsWith(n, "br-") || startsWith(n, "cni") || startsWith(n, "flannel") || startsWith(n, "cali") ||
      startsWith(n, "vxlan") || startsWith(n, "tunl") || startsWith(n, "weave"))
    return "container-overlay";
  return "";
}

void classify(IfAddr& a) {
  if (a.family == 4) {
    a.loopback = startsWith(a.addr, "127.");
    a.linkLocal = startsWith(a.addr, "169.254.");
  } else {
    a.loopback = a.addr == "::1";
    a.linkLocal = startsWith(a.addr, "fe8") || startsWith(a.addr, "fe9") || startsWith(a.addr, "fea") ||
                  startsWith(a.addr, "feb");
  }
}

/// /proc/net/route stores IPv4 addresses as host-order hex of the network-order value (little-endian here).
uint32_t routeHex(const std::string& h) { return static_cast<uint32_t>(std::stoul(h, nullptr, 16)); }

struct Route {
  std::string ifname;
  uint32_t dest = 0, mask = 0;
  bool connected = false;
};

std::vector<Route> readRoutes(const SystemView& sys) {
  std::vector<Route> routes;
  auto text = sys.read("/proc/net/route");
  if (!text) return routes;
  std::istringstream in(*text);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string ifname, dest, gw, flags, refcnt, use, metric, mask;
    if (!(f >> ifname >> dest >> gw >> flags >> refcnt >> use >> metric >> mask)) continue;
    try {
      Route r{ifname, routeHex(dest), routeHex(mask), false};
      unsigned fl = static_cast<unsigned>(std::stoul(flags, nullptr, 16));
      r.connected = (fl & 0x1) && !(fl & 0x2) && routeHex(gw) == 0;  // RTF_UP, not RTF_GATEWAY
      routes.push_back(r);
    } catch (const std::exception&) {
      continue;  // a malformed line in a hand-made capture: skip it rather than lose the other routes
    }
  }
  return routes;
}

/// Local IPv4 addresses: the leaves of fib_trie followed by a "/32 host LOCAL" line.
std::vector<std::string> localIpv4(const SystemView& sys) {
  std::vector<std::string> out;
  auto text = sys.read("/proc/net/fib_trie");
  if (!text) return out;
  std::istringstream in(*text);
  std::string line, leaf;
  while (std::getline(in, line)) {
    std::string t = trim(line);
    if (startsWith(t, "|-- "))
      leaf = t.substr(4);
    else if (t == "/32 host LOCAL" && !leaf.empty() && std::find(out.begin(), out.end(), leaf) == out.end())
      out.push_back(leaf);
  }
  return out;
}

void attachIpv4(const SystemView& sys, std::vector<NetInterface>& ifs) {
  auto routes = readRoutes(sys);
  for (const auto& addr : localIpv4(sys)) {
    in_addr a{};
    if (inet_pton(AF_INET, addr.c_str(), &a) != 1) continue;
    uint32_t ip = a.s_addr;  // same byte order as /proc/net/route's hex on this host
    const Route* best = nullptr;
    for (const auto& r : routes)
      if (r.connected && (ip & r.mask) == (r.dest & r.mask) &&
          (!best || __builtin_popcount(r.mask) > __builtin_popcount(best->mask)))
        best = &r;
    std::string owner;
    int prefix = -1;
    if (best) {
      owner = best->ifname;
      prefix = __builtin_popcount(best->mask);
    } else if (startsWith(addr, "127.")) {
      owner = "lo";
      prefix = 8;
    } else {
      // A /32 address with only an on-link gateway route (common in clouds) sits on the default route's NIC.
      for (const auto& r : routes)
        if (r.dest == 0 && r.mask == 0) owner = r.ifname;
    }
    for (auto& i : ifs)
      if (i.name == owner) {
        IfAddr x{owner, 4, addr, prefix};
        classify(x);
        i.addrs.push_back(x);
      }
  }
}

void attachIpv6(const SystemView& sys, std::vector<NetInterface>& ifs) {
  auto text = sys.read("/proc/net/if_inet6");
  if (!text) return;
  std::istringstream in(*text);
  std::string hex, idx, plen, scope, flags, name;
  while (in >> hex >> idx >> plen >> scope >> flags >> name) {
    // 32 hex digits and a hex prefix length; a hand-made capture can hold anything else, skipped like a
    // malformed route (found by fuzz_procfs: std::stoul's invalid_argument ended the probe).
    const auto hexDigits = [](const std::string& v) {
      return std::all_of(v.begin(), v.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
    };
    if (hex.size() != 32 || !hexDigits(hex) || plen.empty() || plen.size() > 2 || !hexDigits(plen)) continue;
    in6_addr a{};
    for (int b = 0; b < 16; ++b) a.s6_addr[b] = static_cast<uint8_t>(std::stoul(hex.substr(2 * b, 2), nullptr, 16));
    char buf[INET6_ADDRSTRLEN] = {};
    inet_ntop(AF_INET6, &a, buf, sizeof buf);
    IfAddr x{name, 6, buf, static_cast<int>(std::stoul(plen, nullptr, 16))};
    classify(x);
    for (auto& i : ifs)
      if (i.name == name) i.addrs.push_back(x);
  }
  // getifaddrs() lists an interface's global IPv6 addresses before its link-local ones.
  for (auto& i : ifs)
    std::stable_sort(i.addrs.begin(), i.addrs.end(), [](const IfAddr& a, const IfAddr& b) {
      return a.family != b.family ? a.family < b.family : (!a.linkLocal && b.linkLocal);
    });
}

}  // namespace

std::vector<NetInterface> readInterfaces(const SystemView& sys) {
  std::vector<NetInterface> ifs;
  for (const auto& name : sys.list("/sys/class/net")) {
    const std::string base = "/sys/class/net/" + name;
    if (!sys.exists(base + "/ifindex")) continue;  // bonding_masters and other non-interface entries
    NetInterface i;
    i.name = name;
    i.ifindex = static_cast<int>(readInt(sys, base + "/ifindex").value_or(0));
    i.operstate = sys.read(base + "/operstate").value_or("unknown");
    if (auto flags = sys.read(base + "/flags")) {
      try {
        i.adminUp = std::stoul(*flags, nullptr, 16) & 0x1;  // IFF_UP
      } catch (const std::exception&) {
      }
    }
    i.mtu = static_cast<int>(readInt(sys, base + "/mtu").value_or(0));
    i.mac = sys.read(base + "/address").value_or("");
    i.type = static_cast<int>(readInt(sys, base + "/type").value_or(0));
    if (auto sp = readInt(sys, base + "/speed"); sp && *sp > 0) i.speedMbps = *sp;
    if (auto drv = sys.linkName(base + "/device/driver")) i.driver = *drv;
    auto target = sys.readLink(base);
    i.isVirtual = !sys.exists(base + "/device") || (target && target->find("/virtual/") != std::string::npos);
    i.virtualKind = kindByName(name);
    if (i.isVirtual && i.virtualKind.empty()) i.virtualKind = "virtual";
    // A physical NIC named docker0 is not virtual: only software interfaces get a kind.
    if (!i.isVirtual) i.virtualKind.clear();
    ifs.push_back(std::move(i));
  }
  std::sort(ifs.begin(), ifs.end(), [](const auto& a, const auto& b) { return a.ifindex < b.ifindex; });
  attachIpv4(sys, ifs);
  attachIpv6(sys, ifs);
  return ifs;
}

std::vector<IfAddr> addressesFromProcfs(const std::vector<NetInterface>& ifs) {
  std::vector<IfAddr> out;
  for (int fam : {4, 6})
    for (const auto& i : ifs)
      for (const auto& a : i.addrs)
        if (a.family == fam) out.push_back(a);
  return out;
}

std::vector<IfAddr> addressesFromGetifaddrs() {
  std::vector<IfAddr> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (ifaddrs* p = list; p; p = p->ifa_next) {
    if (!p->ifa_addr) continue;
    int fam = p->ifa_addr->sa_family;
    char buf[INET6_ADDRSTRLEN] = {};
    IfAddr a;
    a.ifname = p->ifa_name;
    if (fam == AF_INET) {
      a.family = 4;
      inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(p->ifa_addr)->sin_addr, buf, sizeof buf);
      if (p->ifa_netmask)
        a.prefixLen = __builtin_popcount(reinterpret_cast<sockaddr_in*>(p->ifa_netmask)->sin_addr.s_addr);
    } else if (fam == AF_INET6) {
      a.family = 6;
      inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(p->ifa_addr)->sin6_addr, buf, sizeof buf);
      if (p->ifa_netmask) {
        int bits = 0;
        for (uint8_t b : reinterpret_cast<sockaddr_in6*>(p->ifa_netmask)->sin6_addr.s6_addr)
          bits += __builtin_popcount(b);
        a.prefixLen = bits;
      }
    } else {
      continue;
    }
    a.addr = buf;
    classify(a);
    out.push_back(a);
  }
  freeifaddrs(list);
  return out;
}

Json toJson(const NetInterface& i) {
  Json addrs = Json::array();
  for (const auto& a : i.addrs) addrs.push_back(a.prefixLen >= 0 ? a.addr + "/" + std::to_string(a.prefixLen) : a.addr);
  return Json{{"name", i.name},
              {"ifindex", i.ifindex},
              {"operstate", i.operstate},
              {"admin_up", i.adminUp},
              {"mtu", i.mtu},
              {"mac", i.mac},
              {"type", i.type},
              {"speed_mbps", i.speedMbps ? Json(*i.speedMbps) : Json()},
              {"driver", jsonOrNull(i.driver)},
              {"virtual", i.isVirtual},
              {"virtual_kind", jsonOrNull(i.virtualKind)},
              {"addresses", addrs}};
}

}  // namespace pf::probes

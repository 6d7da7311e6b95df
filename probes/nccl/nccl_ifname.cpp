// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nccl/nccl_ifname.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace pf::probes {
namespace {

/// True when `a` and `b` share the first `bits` bits (both printable addresses of one family).
bool sameSubnet(const std::string& a, const std::string& b, int family, int bits) {
  unsigned char x[16] = {}, y[16] = {};
  int af = family == 4 ? AF_INET : AF_INET6;
  if (inet_pton(af, a.c_str(), x) != 1 || inet_pton(af, b.c_str(), y) != 1) return false;
  for (int i = 0; i < bits; ++i) {
    int byte = i / 8, bit = 7 - i % 8;
    if (((x[byte] >> bit) & 1) != ((y[byte] >> bit) & 1)) return false;
  }
  return true;
}

/// The host part of NCCL_COMM_ID ("10.0.0.1:5000", "[fe80::1]:5000"): the address to match a subnet against.
std::pair<std::string, int> commIdAddress(const std::string& commId) {
  std::string host = commId;
  if (!host.empty() && host.front() == '[') {
    auto close = host.find(']');
    return {host.substr(1, close == std::string::npos ? std::string::npos : close - 1), 6};
  }
  auto colon = host.rfind(':');
  if (colon != std::string::npos && host.find(':') == colon) host = host.substr(0, colon);
  return {host, host.find(':') != std::string::npos ? 6 : 4};
}

}  // namespace

IfList parseIfList(const std::string& value) {
  IfList list;
  std::string v = value;
  if (!v.empty() && v[0] == '^') {
    list.exclude = true;
    v.erase(0, 1);
  }
  if (!v.empty() && v[0] == '=') {
    list.exact = true;
    v.erase(0, 1);
  }
  size_t start = 0;
  while (start <= v.size()) {
    size_t comma = v.find(',', start);
    std::string item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) {
      IfListItem it;
      auto colon = item.find(':');
      it.name = item.substr(0, colon);
      if (colon != std::string::npos) it.port = std::atoi(item.c_str() + colon + 1);
      list.items.push_back(it);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return list;
}

bool matchIfList(const std::string& name, int port, const IfList& list) {
  if (list.items.empty()) return true;  // NCCL: no list means no restriction
  for (const auto& it : list.items) {
    // Prefix: the name starts with the item. Exact: the whole name, terminator included, equals it.
    bool nameOk = list.exact ? name == it.name : name.compare(0, it.name.size(), it.name) == 0;
    bool portOk = it.port == -1 || port == -1 || it.port == port;
    if (nameOk && portOk) return true;
  }
  return false;
}

std::vector<std::string> findInterfaces(const std::string& prefixList, const std::vector<IfAddr>& addrs, int family,
                                        size_t maxIfs) {
  IfList list = parseIfList(prefixList);
  std::vector<std::string> found;
  for (const auto& a : addrs) {
    if (found.size() >= maxIfs) break;
    if (family != 0 && a.family != family) continue;
    if (a.family == 6 && a.loopback) continue;  // NCCL skips IPv6 loopback, not 127.0.0.1
    if (!(matchIfList(a.ifname, -1, list) ^ list.exclude)) continue;
    if (std::find(found.begin(), found.end(), a.ifname) == found.end()) found.push_back(a.ifname);
  }
  return found;
}

int socketFamily(const std::optional<std::string>& value) {
  if (value == "AF_INET") return 4;
  if (value == "AF_INET6") return 6;
  return 0;
}

IfSelection resolveSocketIfname(const std::optional<std::string>& ifname, const std::optional<std::string>& family,
                                const std::optional<std::string>& commId, const std::vector<IfAddr>& addrs) {
  IfSelection s;
  const int fam = socketFamily(family);
  if (family && fam == 0)
    s.notes.push_back(fmt::format("NCCL_SOCKET_FAMILY={} is not AF_INET or AF_INET6: NCCL ignores it", *family));
  if (ifname && ifname->size() > 1) {
    s.userSet = true;
    s.interfaces = findInterfaces(*ifname, addrs, fam);
    s.rule = fmt::format("NCCL_SOCKET_IFNAME={}", *ifname);
    return s;
  }
  if (ifname)
    s.notes.push_back(fmt::format("NCCL_SOCKET_IFNAME='{}' has one character: NCCL treats it as unset", *ifname));
  s.interfaces = findInterfaces("ib", addrs, fam);
  s.rule = "default: interfaces starting with 'ib' first";
  if (s.interfaces.empty() && commId && commId->size() > 1) {
    auto [host, idFam] = commIdAddress(*commId);
    for (const auto& a : addrs) {
      if (a.family != idFam || a.prefixLen < 0 || (fam != 0 && a.family != fam)) continue;
      if (sameSubnet(a.addr, host, a.family, a.prefixLen)) {
        s.interfaces = {a.ifname};
        s.rule = fmt::format("default: the interface in NCCL_COMM_ID's subnet ({})", host);
        break;
      }
    }
  }
  if (s.interfaces.empty()) {
    s.interfaces = findInterfaces("^docker,lo", addrs, fam);
    s.rule = "default: any interface except docker* and lo";
  }
  if (s.interfaces.empty()) {
    s.interfaces = findInterfaces("docker", addrs, fam);
    s.rule = "default: nothing else has an address, so docker*";
  }
  if (s.interfaces.empty()) {
    s.interfaces = findInterfaces("lo", addrs, fam);
    s.rule = "default: nothing else has an address, so lo (single node only)";
  }
  return s;
}

}  // namespace pf::probes

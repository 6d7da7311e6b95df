// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "rails.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "node_map.hpp"
#include "pair_engine.hpp"
#include "pf/error.hpp"
#include "pf/result.hpp"

namespace pf::check {
namespace {

// Interface name -> its first IPv4 address, on the live node.
std::map<std::string, std::string> ipv4Addresses() {
  std::map<std::string, std::string> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (ifaddrs* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET || out.count(a->ifa_name)) continue;
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(a->ifa_addr)->sin_addr, text, sizeof text);
    out[a->ifa_name] = text;
  }
  freeifaddrs(list);
  return out;
}

Rail railOfPort(const RdmaRailPort& p, const std::map<std::string, std::string>& addrs) {
  Rail r;
  r.nic = fmt::format("{} port {}{}", p.device, p.port, p.netdev.empty() ? "" : " (" + p.netdev + ")");
  r.netdev = p.netdev;
  if (!p.active)
    r.unusable = "the port is not ACTIVE";
  else if (p.netdev.empty())
    r.unusable = "sysfs names no interface for the port (an IP address is needed to send over it)";
  else if (auto a = addrs.find(p.netdev); a != addrs.end())
    r.address = a->second;
  else
    r.unusable = "its interface " + p.netdev + " has no IPv4 address";
  return r;
}

Json railJson(const Rail& r) {
  return Json{{"nic", r.nic}, {"netdev", r.netdev}, {"address", r.address}, {"unusable", r.unusable}};
}

}  // namespace

RailSpec parseRailSpec(const std::string& text) {
  RailSpec s;
  if (text == "first") return s;
  if (text == "all") {
    s.mode = RailSpec::Mode::kAll;
    return s;
  }
  s.mode = RailSpec::Mode::kList;
  std::stringstream in(text);
  for (std::string name; std::getline(in, name, ',');) {
    if (name.empty() || name.find_first_of(" /") != std::string::npos)
      throw UsageError(
          fmt::format("--rails '{}': give first, all, or a comma-separated list of interfaces or RDMA "
                      "devices (ib0,ib1 or mlx5_0,mlx5_1:1)",
                      text));
    s.names.push_back(name);
  }
  if (s.names.empty()) throw UsageError("--rails: the list is empty; give first, all, or interfaces (ib0,ib1)");
  return s;
}

std::vector<Rail> discoverRails(const RailSpec& spec, const std::string& sysRoot) {
  std::vector<Rail> out;
  if (!spec.several()) return out;
  const auto addrs = ipv4Addresses();
  const std::vector<RdmaRailPort> ports = readRdmaRailPorts(sysRoot.empty() ? "/" : sysRoot);
  if (spec.mode == RailSpec::Mode::kAll) {
    for (const RdmaRailPort& p : ports) out.push_back(railOfPort(p, addrs));
    return out;
  }
  for (const std::string& name : spec.names) {
    // "mlx5_1" (its first port) or "mlx5_1:2"; otherwise an interface.
    const auto colon = name.find(':');
    const std::string dev = name.substr(0, colon);
    const int port = colon == std::string::npos ? 0 : std::atoi(name.c_str() + colon + 1);
    auto p = std::find_if(ports.begin(), ports.end(),
                          [&](const RdmaRailPort& x) { return x.device == dev && (port == 0 || x.port == port); });
    if (p != ports.end()) {
      out.push_back(railOfPort(*p, addrs));
      continue;
    }
    Rail r;
    r.nic = r.netdev = name;
    if (auto a = addrs.find(name); a != addrs.end())
      r.address = a->second;
    else
      r.unusable = "no interface with an IPv4 address and no RDMA device of that name here";
    out.push_back(std::move(r));
  }
  return out;
}

RailPlan planRails(Bootstrap& boot, const std::vector<std::string>& hostOfRank, const std::vector<Rail>& mine) {
  Json j = Json::array();
  for (const Rail& r : mine) j.push_back(railJson(r));
  std::vector<std::vector<Rail>> all;
  for (const std::string& part : boot.allGather(j.dump())) {
    std::vector<Rail> rails;
    for (const Json& r : Json::parse(part))
      rails.push_back({r.at("nic").get<std::string>(), r.at("netdev").get<std::string>(),
                       r.at("address").get<std::string>(), r.at("unusable").get<std::string>()});
    all.push_back(std::move(rails));
  }
  const NodeMap m = groupByHost(hostOfRank);
  size_t positions = 0;
  for (const auto& rails : all) positions = std::max(positions, rails.size());
  RailPlan plan;
  std::vector<size_t> usable;
  for (size_t i = 0; i < positions; ++i) {
    bool ok = true;
    for (int n = 0; n < m.nodeCount(); ++n) {
      const auto& rails = all[static_cast<size_t>(m.leader[static_cast<size_t>(n)])];
      const std::string& host = m.hosts[static_cast<size_t>(n)];
      const std::string why = i >= rails.size()
                                  ? fmt::format("it has {} rail(s), others have {}", rails.size(), positions)
                                  : rails[i].unusable;
      if (why.empty()) continue;
      ok = false;
      Finding f;
      f.check = "pairs.rail_missing";
      f.hosts = {host};
      const std::string nic = i < rails.size() ? rails[i].nic : "";
      f.message = fmt::format("{}: rail {}{} cannot be tested: {}", host, i, nic.empty() ? "" : " (" + nic + ")", why);
      f.remedy = fmt::format(
          "bring the rail up on {0} (`ibstat`, `ip addr show`; an IPv4 address on the rail's interface) or replace "
          "the NIC, cable or transceiver; drain {0} until every rail is up",
          host);
      plan.findings.push_back(std::move(f));
    }
    if (ok) usable.push_back(i);
  }
  plan.count = static_cast<int>(usable.size());
  for (const auto& rails : all) {
    std::vector<Rail> keep;
    for (size_t i : usable)
      if (i < rails.size()) keep.push_back(rails[i]);
    plan.byRank.push_back(std::move(keep));
  }
  return plan;
}

std::vector<Finding> setUpRails(PairEngine& engine, Bootstrap& boot, const std::vector<std::string>& hostOfRank,
                                const RailSpec& spec, const std::string& sysRoot) {
  RailPlan plan = planRails(boot, hostOfRank, discoverRails(spec, sysRoot));
  engine.useRails(boot, plan);
  return plan.findings;
}

}  // namespace pf::check

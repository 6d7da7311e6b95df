// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nic_rates.hpp"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <optional>

#include "pf/error.hpp"

namespace pf::scaling {

namespace {

double numberOr(const Json& row, const char* key, double fallback) {
  const auto it = row.find(key);
  return it != row.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string stringOr(const Json& row, const char* key) {
  const auto it = row.find(key);
  return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool activePort(const Json& row) { return stringOr(row, "state") == "ACTIVE" && numberOr(row, "rate_gbit", 0) > 0; }

std::string portName(const Json& row) {
  return fmt::format("{}:{}", stringOr(row, "device"), numberOr(row, "port", 1));
}

void addPort(NicSet& s, const Json& row) {
  s.names.push_back(portName(row));
  s.gbitTotal += numberOr(row, "rate_gbit", 0);
}

void noteProblem(NicSet& s, const Result& r) {
  if (r.status == Status::kWarn || r.status == Status::kFail) s.caveat = r.key + ": " + r.message;
}

// EFA devices are aws-ofi-nccl's, one rail each.
NicSet efa(const Result& r) {
  NicSet s;
  s.transport = "EFA";
  for (const Json& row : r.rows)
    if (row.is_object() && activePort(row)) addPort(s, row);
  noteProblem(s, r);
  return s;
}

// Each row the probe's own record of NCCL's selection (params[key], a list of names) names, in that order.
void forSelected(const Result& r, const char* key, std::string (*nameOf)(const Json&),
                 const std::function<void(const Json&)>& take) {
  const auto sel = r.params.find(key);
  if (sel == r.params.end() || !sel->is_array()) return;
  for (const Json& name : *sel)
    for (const Json& row : r.rows)
      if (name.is_string() && row.is_object() && nameOf(row) == name.get<std::string>()) take(row);
}

// The ports NCCL's IB transport selects (probe.ib resolved NCCL_IB_HCA as NCCL does), at their rates.
NicSet ibPorts(const Result& r) {
  NicSet s;
  s.transport = "InfiniBand/RoCE";
  forSelected(r, "nccl_ib_ports", portName, [&](const Json& row) {
    if (activePort(row)) addPort(s, row);
  });
  noteProblem(s, r);
  return s;
}

// NCCL's socket interfaces that report a link speed (virtual ones report none and are left out).
NicSet sockets(const Result& r) {
  NicSet s;
  s.transport = "sockets";
  const auto ifName = [](const Json& row) { return stringOr(row, "name"); };
  forSelected(r, "nccl_socket_interfaces", ifName, [&](const Json& row) {
    if (stringOr(row, "operstate") != "up" || numberOr(row, "speed_mbps", 0) <= 0) return;
    s.names.push_back(stringOr(row, "name"));
    s.gbitTotal += numberOr(row, "speed_mbps", 0) / 1000.0;
  });
  return s;
}

}  // namespace

std::string NicSet::describe() const {
  return fmt::format("{} {} {}, {:g} Gb/s in all ({}, node {})", names.size(), transport,
                     transport == "sockets" ? "interface(s)" : "port(s)", gbitTotal, source, host);
}

std::map<std::string, HostResults> probeResultsByHost(const RunReport& probe) {
  std::map<std::string, HostResults> byHost;
  for (const Result& r : probe.results)
    if (r.kind == Kind::kProbe)
      byHost[r.host.empty() ? fmt::format("rank {}", r.rank) : r.host].emplace(r.key, &r);  // first rank wins
  return byHost;
}

NicSet nicsFromProbe(const RunReport& probe, const std::string& path) {
  const std::map<std::string, HostResults> byHost = probeResultsByHost(probe);
  if (byHost.empty())
    throw UsageError(
        fmt::format("--nics {}: no probe results in it; give the document of `preflight probe --json "
                    "FILE` run on a node of the cluster",
                    path));
  std::optional<NicSet> slowest;
  for (const auto& [host, results] : byHost) {
    NicSet s;
    const auto take = [&](const char* key, NicSet (*read)(const Result&)) {
      const auto it = results.find(key);
      if (s.names.empty() && it != results.end()) s = read(*it->second);
    };
    take("probe.efa", efa);
    take("probe.ib", ibPorts);
    take("probe.net", sockets);
    if (s.names.empty()) continue;
    s.host = host;
    if (!slowest || s.gbitTotal < slowest->gbitTotal) slowest = std::move(s);
  }
  if (!slowest)
    throw UsageError(fmt::format(
        "--nics {}: no node in it has a NIC with a known rate (an active EFA device, an InfiniBand/RoCE port NCCL "
        "would use, or an NCCL socket interface that reports its speed); leave --nics out, or give the probe "
        "document of a node that has one",
        path));
  slowest->hosts = static_cast<int>(byHost.size());
  slowest->source = path;
  return *slowest;
}

}  // namespace pf::scaling

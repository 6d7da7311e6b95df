// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "port_counters.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "node_map.hpp"
#include "pf/json_field.hpp"

namespace pf::check {
namespace {

// The judged counters. `failFrom`: a rise of at least this many during the phase fails (0: it only warns). The
// meanings follow the InfiniBand PortCounters attribute (IBTA vol. 1, 16.1.3.5) and the kernel's
// Documentation/ABI/stable/sysfs-class-infiniband; hw_counters are mlx5's transport counters.
struct PortCounterRule {
  const char* dir;
  const char* name;
  uint64_t failFrom;
  const char* meaning;
};

constexpr const char* kCounterCableRemedy =
    "reseat or replace the cable or transceiver of {host} {port} (and check the switch port at the other end); "
    "read the counters with `perfquery -x` on the node or `ibdiagnet` from the subnet manager host, clear them "
    "(`perfquery -R`) and rerun `preflight check`; drain {host} until the counters stay flat";
constexpr const char* kCounterCongestionRemedy =
    "packets were dropped or retransmitted on {host} {port}: check the fabric's congestion control and PFC/ECN "
    "settings (RoCE), the switch port's counters (`ibdiagnet`), and that no other job shares the link";

const PortCounterRule kPortCounterRules[] = {
    {"counters", "symbol_error", 10,
     "symbol errors: bits the receiver could not decode on the physical link (a marginal cable, transceiver or "
     "connector; a handful a day is tolerated, a burst within seconds is not)"},
    {"counters", "link_downed", 1, "link downed: the link went down and did not recover by itself (a flapping link)"},
    {"counters", "link_error_recovery", 1,
     "link error recovery: the link retrained after errors (a marginal link that recovers, slowly)"},
    {"counters", "port_rcv_errors", 1, "receive errors: packets that arrived damaged (bad CRC, length or VL)"},
    {"counters", "port_rcv_remote_physical_errors", 1,
     "remote physical errors: packets marked bad by an earlier hop (corruption upstream of this port)"},
    {"counters", "excessive_buffer_overrun_errors", 1,
     "buffer overruns: the receive buffer overflowed, so the link's flow control failed"},
    {"counters", "local_link_integrity_errors", 1,
     "link integrity errors: the local link's error rate crossed its threshold"},
    {"counters", "port_xmit_discards", 0,
     "transmit discards: packets dropped on send (the port was down or congested)"},
    {"counters", "port_rcv_constraint_errors", 0,
     "receive constraint errors: packets refused by partition or raw-packet rules (a configuration mismatch)"},
    {"counters", "port_xmit_constraint_errors", 0,
     "transmit constraint errors: packets not sent because of partition or raw-packet rules"},
    {"hw_counters", "local_ack_timeout_err", 0,
     "transport timeouts: a sent packet was not acknowledged in time and was retransmitted (loss on the path)"},
    {"hw_counters", "packet_seq_err", 0, "sequence errors: packets arrived out of order or missing (loss on the path)"},
};

std::string counterPortName(const PortCounters& p) { return fmt::format("{} port {}", p.device, p.port); }

const PortCounters* findCounterPort(const std::vector<PortCounters>& ports, const PortCounters& like) {
  for (const PortCounters& p : ports)
    if (p.device == like.device && p.port == like.port) return &p;
  return nullptr;
}

std::string fillCounterRemedy(const char* text, const std::string& host, const std::string& port) {
  return fmt::format(fmt::runtime(text), fmt::arg("host", host), fmt::arg("port", port));
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& judgedCounterFiles() {
  static const std::vector<std::pair<std::string, std::string>> files = [] {
    std::vector<std::pair<std::string, std::string>> v;
    for (const PortCounterRule& r : kPortCounterRules) v.emplace_back(r.dir, r.name);
    return v;
  }();
  return files;
}

std::vector<Finding> judgePortCounters(const std::string& host, const std::vector<PortCounters>& before,
                                       const std::vector<PortCounters>& after) {
  std::vector<Finding> out;
  for (const PortCounters& b : before) {
    const std::string port = counterPortName(b);
    // Since the counters were last cleared: a link that went down is worth knowing even when it held this time.
    if (auto it = b.values.find("link_downed"); it != b.values.end() && it->second > 0) {
      Finding f;
      f.status = Status::kWarn;
      f.check = "fabric.link_downed_before";
      f.hosts = {host};
      f.message = fmt::format("{}: {} went down {} time(s) since its counters were last cleared (not during this run)",
                              host, port, it->second);
      f.remedy = fillCounterRemedy(kCounterCableRemedy, host, port);
      f.evidence.push_back(
          {"link_downed before the pair phase", static_cast<double>(it->second), "", host + " " + port});
      out.push_back(std::move(f));
    }
    const PortCounters* a = findCounterPort(after, b);
    if (!a) continue;
    for (const PortCounterRule& rule : kPortCounterRules) {
      auto vb = b.values.find(rule.name), va = a->values.find(rule.name);
      if (vb == b.values.end() || va == a->values.end() || va->second <= vb->second) continue;
      const uint64_t delta = va->second - vb->second;
      const bool fails = rule.failFrom > 0 && delta >= rule.failFrom;
      const bool cable = std::string(rule.dir) == "counters" && rule.failFrom > 0;
      Finding f;
      f.status = fails ? Status::kFail : Status::kWarn;
      f.check = "fabric.port_counters";
      f.hosts = {host};
      f.message = fmt::format("{}: {} {} rose by {} during the pair phase ({} -> {}): {}", host, port, rule.name, delta,
                              vb->second, va->second, rule.meaning);
      f.remedy = fillCounterRemedy(cable ? kCounterCableRemedy : kCounterCongestionRemedy, host, port);
      const std::string src = fmt::format("{} {} {}/{}", host, port, rule.dir, rule.name);
      f.evidence.push_back({"before the pair phase", static_cast<double>(vb->second), "", src});
      f.evidence.push_back({"after the pair phase", static_cast<double>(va->second), "", src});
      f.evidence.push_back({"rise", static_cast<double>(delta), "", src});
      out.push_back(std::move(f));
    }
  }
  return out;
}

Json toJson(const PortCounters& p) {
  Json values = Json::object();
  for (const auto& [k, v] : p.values) values[k] = v;
  return Json{{"device", p.device}, {"port", p.port}, {"link_layer", p.linkLayer}, {"values", values}};
}

PortCounters portCountersFromJson(const Json& j) {
  PortCounters p;
  p.device = requiredField<std::string>(j, "device");
  p.port = requiredField<int>(j, "port");
  p.linkLayer = requiredField<std::string>(j, "link_layer");
  for (const auto& [k, v] : j.at("values").items()) p.values[k] = v.get<uint64_t>();
  return p;
}

PortCounterWatch::PortCounterWatch(Bootstrap& boot, const std::vector<std::string>& hostOfRank, std::string root)
    : boot_(boot), hostOfRank_(hostOfRank), root_(root.empty() ? "/" : std::move(root)) {
  const NodeMap m = groupByHost(hostOfRank_);
  leader_ = m.leader[static_cast<size_t>(m.nodeOfRank[static_cast<size_t>(boot.rank())])] == boot.rank();
  if (leader_) before_ = readPortCounters(root_);
}

PortCounterWatch::Outcome PortCounterWatch::finish() {
  std::string mine;
  if (leader_ && !before_) mine = R"({"unavailable":true})";
  if (leader_ && before_) {
    Json j{{"before", Json::array()}, {"after", Json::array()}};
    for (const PortCounters& p : *before_) j["before"].push_back(toJson(p));
    if (auto after = readPortCounters(root_))
      for (const PortCounters& p : *after) j["after"].push_back(toJson(p));
    mine = j.dump();
  }
  const std::vector<std::string> all = boot_.allGather(mine);
  const NodeMap m = groupByHost(hostOfRank_);
  Outcome o;
  std::vector<std::string> rose;
  bool unavailable = false;
  for (int n = 0; n < m.nodeCount(); ++n) {
    const std::string& part = all[static_cast<size_t>(m.leader[static_cast<size_t>(n)])];
    if (part.empty()) continue;
    const Json j = Json::parse(part);
    if (j.contains("unavailable")) {
      unavailable = true;
      continue;
    }
    std::vector<PortCounters> before, after;
    for (const Json& p : j.at("before")) before.push_back(portCountersFromJson(p));
    for (const Json& p : j.at("after")) after.push_back(portCountersFromJson(p));
    if (before.empty()) continue;
    ++o.nodes;
    o.ports += static_cast<int>(before.size());
    for (Finding& f : judgePortCounters(m.hosts[static_cast<size_t>(n)], before, after)) {
      if (f.check == "fabric.port_counters") rose.push_back(f.hosts.front());
      o.findings.push_back(std::move(f));
    }
  }
  if (unavailable)
    o.summary = "not read: this build has no probes to read sysfs with";
  else if (o.nodes == 0)
    o.summary = "no RDMA ports on any node";
  else
    o.summary = fmt::format(
        "{} RDMA port(s) on {} node(s) read before and after the pair phase; {}", o.ports, o.nodes,
        rose.empty() ? "no error counter rose" : fmt::format("error counters rose on {}", fmt::join(rose, ", ")));
  return o;
}

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What the check reads of the RDMA ports through the probes' SystemView: their error counters (port_counters.hpp)
// and the ports that may carry rails (rails.hpp). Built when the probes component exists; rdma_sysfs_none.cpp
// otherwise.
#include "ib/ib_devices.hpp"
#include "port_counters.hpp"
#include "probe_util.hpp"
#include "rails.hpp"

namespace pf::check {

std::optional<std::vector<PortCounters>> readPortCounters(const std::string& root) {
  const probes::SystemView sys(root, Environment{}, false);
  std::vector<PortCounters> out;
  for (const probes::IbDevice& d : probes::readRdmaStack(sys).devices)
    for (const probes::IbPort& p : d.ports) {
      PortCounters c;
      c.device = d.name;
      c.port = p.num;
      c.linkLayer = p.linkLayer;
      const std::string dir = "/sys/class/infiniband/" + d.name + "/ports/" + std::to_string(p.num) + "/";
      for (const auto& [sub, name] : judgedCounterFiles())
        if (auto v = probes::readInt(sys, dir + sub + "/" + name); v && *v >= 0)
          c.values[name] = static_cast<uint64_t>(*v);
      out.push_back(std::move(c));
    }
  return out;
}

std::vector<RdmaRailPort> readRdmaRailPorts(const std::string& root) {
  const probes::SystemView sys(root, Environment{}, false);
  std::vector<RdmaRailPort> out;
  for (const probes::IbDevice& d : probes::readRdmaStack(sys).devices) {
    if (probes::isEfa(d)) continue;  // EFA has no IP interface; its rails are libfabric's to drive
    for (const probes::IbPort& p : d.ports) out.push_back({d.name, p.num, p.active(), p.netdev});
  }
  return out;
}

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Fabric health: every RDMA port's error counters (/sys/class/infiniband/<dev>/ports/<n>/counters and
// hw_counters), read by each node's lowest rank before and after the pair phase. The pair phase pushes the links
// hard for seconds, so a marginal cable or transceiver that still passes a bandwidth test shows up as symbol
// errors, link retraining or receive errors that rose while it ran. A rise is a finding naming the node, device and
// port with the delta, what the counter means and the remedy; a link that went down since the counters were last
// cleared is a warning even when it did not go down during the run.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "finding.hpp"
#include "pf/bootstrap.hpp"

namespace pf::check {

struct PortCounters {
  std::string device;  ///< mlx5_0
  int port = 1;
  std::string linkLayer;                   ///< "InfiniBand", "Ethernet" (RoCE)
  std::map<std::string, uint64_t> values;  ///< counter file name -> value (only those present and numeric)
};

/// Every RDMA port's counters under `root` (a captured tree, "/" on the live node), ports in device/port order;
/// nullopt when this build has no probes to read them with. Only the counters port_counters.cpp judges are kept.
std::optional<std::vector<PortCounters>> readPortCounters(const std::string& root);

/// The counter files judged, as (sub-directory of the port, file name): ("counters", "symbol_error")...
const std::vector<std::pair<std::string, std::string>>& judgedCounterFiles();

/// The findings for one node from its two readings (ports matched by device and port; a port in only one
/// reading, or a counter that fell, e.g. cleared by `perfquery -R` in between, is not judged).
std::vector<Finding> judgePortCounters(const std::string& host, const std::vector<PortCounters>& before,
                                       const std::vector<PortCounters>& after);

Json toJson(const PortCounters& p);
PortCounters portCountersFromJson(const Json& j);

/// The counters around a phase, as a collective: the constructor reads on each node's lowest rank, finish()
/// reads again there, gathers every node's readings to every rank and judges them.
class PortCounterWatch {
 public:
  /// @param hostOfRank every rank's hostname (allGather), as the pair matrix names nodes
  /// @param root where sysfs is read ("" or "/" = the live node; --sysfs-root's tree otherwise)
  PortCounterWatch(Bootstrap& boot, const std::vector<std::string>& hostOfRank, std::string root);

  struct Outcome {
    std::vector<Finding> findings;
    int nodes = 0, ports = 0;  ///< nodes that had RDMA ports, ports read on them
    std::string summary;       ///< one line for the document: what was read and what rose
  };
  Outcome finish();

 private:
  Bootstrap& boot_;
  std::vector<std::string> hostOfRank_;
  std::string root_;
  bool leader_ = false;
  std::optional<std::vector<PortCounters>> before_;
};

}  // namespace pf::check

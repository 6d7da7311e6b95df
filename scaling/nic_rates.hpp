// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The network a node reaches other nodes through, read from a probe document (`preflight probe --json`): how
// many NICs NCCL would use and their link rates. The capacity model uses it two ways (fabric_model.hpp):
// beside an inter-node sweep, as the ceiling the fitted bandwidth is compared with (a sweep that moved more
// than the NICs can carry did not cross them); without one, as the inter-node level itself, at line rate,
// which makes every prediction across nodes a lower bound on time.
//
// Which NICs: NCCL puts one channel pair on each NIC it selects and a ring's inter-node hop is spread over
// them, so a node's inter-node bandwidth is the sum of their rates (NCCL's PERFORMANCE.md: bus bandwidth is
// bounded by the node's network bandwidth). The selection is the probes' own: EFA devices when probe.efa
// found them (aws-ofi-nccl), else the ports probe.ib resolved from NCCL_IB_HCA as NCCL does
// (`nccl_ib_ports`), else NCCL's socket interfaces (probe.net) with the speed sysfs reports. A document from
// several nodes gives the slowest node's sum: the ring waits for it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "pf/result.hpp"

namespace pf::scaling {

struct NicSet {
  std::string transport;           ///< "EFA", "InfiniBand/RoCE", "sockets"
  std::vector<std::string> names;  ///< "mlx5_0:1", "eth0"
  double gbitTotal = 0;            ///< the sum of their link rates, Gbit/s
  std::string host;                ///< the node it was read on (the slowest when the document has several)
  int hosts = 1;                   ///< nodes in the document
  std::string source;              ///< the document's path
  std::string caveat;              ///< the probe's own warning about these NICs, when it raised one

  /// Bytes per microsecond at line rate (1 Gbit/s = 125 bytes/us).
  double bytesPerUs() const { return gbitTotal * 125.0; }
  std::string describe() const;  ///< "8 InfiniBand/RoCE ports, 3000 Gb/s in all (probe.json, node dgx-1)"
};

/// A probe document's probe results by node: host (or "rank N" when a result names none) -> probe key -> the
/// result of that node's first rank, which speaks for the node.
using HostResults = std::map<std::string, const Result*>;
std::map<std::string, HostResults> probeResultsByHost(const RunReport& probe);

/// The NICs from a probe document. @throws UsageError naming the file when it is not a probe document or
/// no node in it has a NIC with a known rate (what to run instead is in the message).
NicSet nicsFromProbe(const RunReport& probe, const std::string& path);

}  // namespace pf::scaling

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Which HCA ports NCCL's IB transport would use for a given NCCL_IB_HCA. NCCL parses NCCL_IB_HCA with the same
// list grammar as NCCL_SOCKET_IFNAME (NCCL User Guide, "Environment Variables": comma-separated prefixes, '^'
// excludes, '=' makes items exact names, ':<port>' restricts an item to one port) and keeps a device port when
// (match XOR exclude). Because items are prefixes, "mlx5_1" also selects mlx5_10..mlx5_17 on a host with more
// than ten HCAs: the User Guide's own example uses "=mlx5_1" for that reason. This module reports that
// ambiguity, and items that select nothing, as findings a person can act on.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pf::probes {

struct HcaPort {
  std::string device;  ///< e.g. mlx5_0
  int port = 1;        ///< 1-based, as in /sys/class/infiniband/<dev>/ports/<n>
};

struct HcaSelection {
  std::vector<HcaPort> selected;       ///< the ports NCCL keeps, in the input order
  bool userSet = false;                ///< NCCL_IB_HCA was set and not empty
  std::vector<std::string> ambiguous;  ///< one message per prefix item that selects more than its exact name
  std::vector<std::string> unmatched;  ///< items that select no port at all
};

/// Applies NCCL_IB_HCA (unset or empty: every port is kept) to the ports found on this host.
HcaSelection resolveIbHca(const std::optional<std::string>& ibHca, const std::vector<HcaPort>& ports);

}  // namespace pf::probes

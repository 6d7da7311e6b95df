// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Which interfaces NCCL would pick for its sockets, re-implemented from NCCL's documented rules (User Guide,
// "Environment Variables", NCCL_SOCKET_IFNAME) and its observable behaviour:
//   - the value is a comma-separated list of prefixes ("eth" matches eth0 and eth10); each item may carry
//     ":port" (used by NCCL_OOB_NET_IFNAME for net devices);
//   - a leading '^' selects the interfaces that match *none* of the items;
//   - a '=' (after the optional '^') makes every item an exact name;
//   - only interfaces that hold an IPv4 or IPv6 address count (IPv6 loopback ::1 never does); NCCL_SOCKET_FAMILY
//     AF_INET / AF_INET6 restricts the family, any other value is ignored;
//   - a value of one character is treated as unset;
//   - unset: interfaces starting with "ib" first; else, with NCCL_COMM_ID set, one in the same subnet as its
//     address; else anything but "docker" and "lo"; else "docker"; else "lo".
// Interfaces are visited in getifaddrs() order (IPv4 addresses first, by interface index), which is the order
// of NCCL's list; the bootstrap uses the first one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "net/net_interfaces.hpp"

namespace pf::probes {

struct IfListItem {
  std::string name;
  int port = -1;  ///< -1 = any
};

struct IfList {
  bool exclude = false;  ///< leading '^'
  bool exact = false;    ///< '=' after the optional '^'
  std::vector<IfListItem> items;
};

/// Parses an NCCL interface list ("^=docker0,lo", "=mlx5_0:1", "eth").
IfList parseIfList(const std::string& value);

/// NCCL's match of one name (and port, -1 = any) against a parsed list; an empty list matches everything.
bool matchIfList(const std::string& name, int port, const IfList& list);

/// The interfaces NCCL's socket search finds for `prefixList`, in NCCL's order, without duplicates.
/// @param family 0 any, 4 or 6 (NCCL_SOCKET_FAMILY)
/// @param maxIfs NCCL's limit (MAX_IFS = 16)
std::vector<std::string> findInterfaces(const std::string& prefixList, const std::vector<IfAddr>& addrs, int family,
                                        size_t maxIfs = 16);

struct IfSelection {
  std::vector<std::string> interfaces;  ///< what NCCL would use, in order (the bootstrap takes the first)
  std::string rule;                     ///< how they were chosen, for messages
  bool userSet = false;                 ///< NCCL_SOCKET_IFNAME was effective (set, longer than one character)
  std::vector<std::string> notes;       ///< value quirks (ignored one-character value, unknown family)
};

/// NCCL_SOCKET_IFNAME resolution with the default order when it is unset.
/// @param ifname NCCL_SOCKET_IFNAME; @param family NCCL_SOCKET_FAMILY; @param commId NCCL_COMM_ID
IfSelection resolveSocketIfname(const std::optional<std::string>& ifname, const std::optional<std::string>& family,
                                const std::optional<std::string>& commId, const std::vector<IfAddr>& addrs);

/// NCCL_SOCKET_FAMILY as NCCL reads it: 4 for AF_INET, 6 for AF_INET6, 0 (no filter) otherwise.
int socketFamily(const std::optional<std::string>& value);

}  // namespace pf::probes

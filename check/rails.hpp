// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Every rail: on a node with several NICs, rail i is NIC i (in name order), and the pair test measures NIC i of
// node a against NIC i of node b, for every i, in the same tournament rounds, so a bad cable, transceiver or
// switch port on one rail is named by node and NIC. `check --rails first` (the default) keeps the engine's one
// default path; `all` takes every RDMA port that is ACTIVE and whose interface has an IPv4 address; a list names
// interfaces or RDMA devices (`ib0,ib1`, `mlx5_0,mlx5_1:1`), the same names on every node.
#pragma once

#include <string>
#include <vector>

#include "finding.hpp"
#include "pf/bootstrap.hpp"

namespace pf::check {

struct Rail {
  std::string nic;       ///< what the rail is named by: "mlx5_2 port 1 (ib2)", or the interface "rail2"
  std::string netdev;    ///< the interface the rail's bytes leave by
  std::string address;   ///< its IPv4 address
  std::string unusable;  ///< why this rail cannot be tested on this node (empty when it can)
};

struct RailSpec {
  enum class Mode { kFirst, kAll, kList } mode = Mode::kFirst;
  std::vector<std::string> names;  ///< kList: interfaces or RDMA devices ("mlx5_0" or "mlx5_0:1")
  bool several() const { return mode != Mode::kFirst; }
};

/// Parses --rails. @throws UsageError naming the value and the accepted forms
RailSpec parseRailSpec(const std::string& text);

/// An RDMA port that may carry a rail: its device, port number, state and interface (sysfs).
struct RdmaRailPort {
  std::string device;
  int port = 1;
  bool active = false;
  std::string netdev;
};
/// Every RDMA port under `root` in device/port order; empty when this build has no probes (rdma_sysfs_none.cpp).
std::vector<RdmaRailPort> readRdmaRailPorts(const std::string& root);

/// This node's rails under `spec`, in rail order (the live node's IPv4 addresses: getifaddrs). A listed name that is
/// not here, a port that is not ACTIVE or an interface without an IPv4 address keeps its place, marked unusable.
std::vector<Rail> discoverRails(const RailSpec& spec, const std::string& sysRoot);

/// The rails every node tests: each node's leader's list gathered to every rank (a collective call).
struct RailPlan {
  int count = 0;                          ///< rails usable on every node
  std::vector<std::vector<Rail>> byRank;  ///< every rank's usable rails, by world rank (count each)
  std::vector<Finding> findings;          ///< a rail unusable on a node fails that node, naming the rail
};
RailPlan planRails(Bootstrap& boot, const std::vector<std::string>& hostOfRank, const std::vector<Rail>& mine);

class PairEngine;
/// Discovers this node's rails, plans them across the nodes and hands the plan to `engine` (a collective call, after
/// the engine's init). Returns the plan's findings (rails that cannot be tested on a node).
std::vector<Finding> setUpRails(PairEngine& engine, Bootstrap& boot, const std::vector<std::string>& hostOfRank,
                                const RailSpec& spec, const std::string& sysRoot);

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A node profile: what a node must have (docs/probe.md, "Node profiles"; docs/node-profile.schema.json). TOML,
// every key optional; a key that is absent is not judged. Counts, rates, widths, PCIe generations and widths,
// memory, MTU, memlock and /dev/shm are minimums; model, state and transparent huge pages must match; versions
// are an inclusive [min, max] range. [ib] covers RDMA devices whose ports are InfiniBand, [roce] those whose
// ports are Ethernet; EFA devices are not judged here (the efa probe covers them).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pf/result.hpp"
#include "profile/node_facts.hpp"

namespace pf::probes {

struct RdmaSpec {
  std::optional<long long> count, ports;  ///< devices, ports over all of them
  std::optional<double> rateGbit;
  std::optional<long long> width;  ///< lanes: "4X" -> 4
  std::optional<std::string> state;
  std::optional<long long> pcieGen, pcieWidth, mtu;
  bool any() const { return count || ports || rateGbit || width || state || pcieGen || pcieWidth || mtu; }
};

/// What a node shows that names its SKU, for `--profile auto` (every key given must hold).
struct ProfileMatch {
  std::optional<std::string> sysVendor, productName;  ///< DMI, exact
  std::optional<bool> hypervVmbus;                    ///< /sys/bus/vmbus exists (a Hyper-V guest) or not
  std::optional<std::string> gpuModelContains;        ///< every GPU's model contains it
  std::optional<long long> gpuCount, ibCount, roceCount, efaCount;
  std::optional<double> ibRateGbit;  ///< every InfiniBand port's rate
  int criteria() const {
    return !!sysVendor + !!productName + hypervVmbus.has_value() + !!gpuModelContains + !!gpuCount + !!ibCount +
           !!roceCount + !!efaCount + !!ibRateGbit;
  }
};

struct NodeProfile {
  std::string origin;     ///< the file it came from (or "built-in NAME"), for messages
  std::string pickedBy;   ///< `--profile auto`: which profile and why; empty otherwise
  bool autoPick = false;  ///< `--profile auto`: each node picks its built-in when it is judged
  std::string noneFits;   ///< `--profile auto` found none: what the node shows (then nothing is judged)
  /// `--profile auto`: the profiles each node picks from (the built-ins, read once, not once per node).
  std::vector<NodeProfile> candidates;
  struct {
    std::string name, description;
    std::vector<std::string> sources;  ///< "[tag] URL or repo path" per cited source
  } meta;
  ProfileMatch match;
  struct {
    std::optional<long long> count, memoryMib, pcieGen, pcieWidth, nvlinkLinks;
    std::optional<std::string> model, driverMin, driverMax;
    /// GB/s each GPU's NVLink moves in one direction: not judged, read by `preflight plan` as the intra-node rate.
    std::optional<double> nvlinkGbs;
  } gpu;
  struct {
    std::optional<std::string> driverMin, driverMax;  ///< CUDA driver API version, "12.4"
  } cuda;
  struct {
    bool gpuNicNuma = false, gpuNicPcieSwitch = false;
  } placement;
  struct {
    std::optional<double> allreduceBusbwGbs, pairBusbwGbs;  ///< GB/s; none = derive from the link rates
    bool derive = false;
  } expect;
  RdmaSpec ib, roce;
  struct {
    bool memlockUnlimited = false;
    std::optional<long long> memlockBytes, shmBytes;
    std::optional<std::string> transparentHugepages;
  } host;
  struct {
    std::optional<std::string> versionMin, versionMax;
  } nccl;
};

/// Parses a profile. @param origin the file name, named in every error
/// @throws UsageError "FILE: KEY ..." naming the key and what to change (unknown key, wrong type, bad value)
NodeProfile parseNodeProfile(const std::string& text, const std::string& origin);
/// Reads and parses FILE. @throws UsageError when it cannot be read or parsed
NodeProfile loadNodeProfile(const std::string& path);

/// The profile of a known-good node: everything it shows, as the minimum or the exact value.
/// @param notes filled with a line per part that differs from its peers (the emitted value is their majority)
NodeProfile profileFromFacts(const NodeFacts& facts, std::vector<std::string>& notes);
/// The profile as TOML text, with a header naming the node it came from.
std::string profileToToml(const NodeProfile& p, const std::string& fromHost);

/// Judges a node against a profile: result key "probe.profile" (kind probe), pass/warn/fail, one row per
/// judged item {part, item, expected, found, status, source}, evidence and a remedy for each item that fails.
/// `profile` may be `--profile auto` (the node picks from its candidates here) or what pickProfile picked.
/// @param announce for a picked profile, say on stderr which one the node picked (once per node: its first rank)
Result judgeNodeProfile(const NodeFacts& facts, const NodeProfile& profile, bool announce = true);

}  // namespace pf::probes

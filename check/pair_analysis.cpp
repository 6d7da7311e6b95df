// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pair_analysis.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "pf/json_field.hpp"
#include "pf/stats.hpp"

namespace pf::check {
namespace {

// Judges one row against the expectation; fills its status and reason.
void judgeRow(PairRow& r, const Expectation& e, const PairLimits& l) {
  std::vector<std::string> why;
  Status st = Status::kPass;
  auto raise = [&](Status s, std::string reason) {
    st = worst(st, s);
    why.push_back(std::move(reason));
  };
  const double bw = r.bwGbps();
  if (e.relative && e.bwGbps && *e.bwGbps > 0) {
    const double frac = bw / *e.bwGbps;
    // How far below the healthy pairs this pair is, in their own (log-scale) spread; +inf when unknown.
    const double z = e.bwLogSpread && *e.bwLogSpread > 0 && bw > 0 ? std::log(bw / *e.bwGbps) / *e.bwLogSpread
                                                                   : -std::numeric_limits<double>::infinity();
    if (frac < l.bwFailFraction && z > -l.bwSpreadFailZ)
      raise(Status::kWarn, fmt::format("bandwidth {:.3f} GB/s is {:.0f}% of the expected {:.3f} GB/s, but within the "
                                       "healthy pairs' own spread (robust z {:.1f}; fail beyond -{:g})",
                                       bw, 100 * frac, *e.bwGbps, z, l.bwSpreadFailZ));
    else if (frac < l.bwFailFraction)
      raise(Status::kFail, fmt::format("bandwidth {:.3f} GB/s is {:.0f}% of the expected {:.3f} GB/s (fail below "
                                       "{:.0f}%)",
                                       bw, 100 * frac, *e.bwGbps, 100 * l.bwFailFraction));
    else if (frac < l.bwWarnFraction && z > -l.bwSpreadFailZ)
      ;  // below the warning fraction but as close to the median as healthy pairs are: noise, not a finding
    else if (frac < l.bwWarnFraction)
      raise(Status::kWarn, fmt::format("bandwidth {:.3f} GB/s is {:.0f}% of the expected {:.3f} GB/s (warn below "
                                       "{:.0f}%)",
                                       bw, 100 * frac, *e.bwGbps, 100 * l.bwWarnFraction));
  }
  if (e.relative && e.latUs && *e.latUs > 0) {
    const double failAt = std::max(l.latFailFactor * *e.latUs, *e.latUs + l.latSlackUs);
    const double warnAt = std::max(l.latWarnFactor * *e.latUs, *e.latUs + l.latSlackUs);
    if (r.lat_us > failAt)
      raise(Status::kFail,
            fmt::format("latency {:.1f} us exceeds {:.1f} us (expected {:.1f} us)", r.lat_us, failAt, *e.latUs));
    else if (r.lat_us > warnAt)
      raise(Status::kWarn, fmt::format("latency {:.1f} us exceeds the warning limit {:.1f} us (expected {:.1f} us)",
                                       r.lat_us, warnAt, *e.latUs));
  }
  if (l.bwMinGbps > 0 && bw < l.bwMinGbps)
    raise(Status::kFail, fmt::format("bandwidth {:.3f} GB/s is below the floor {:.3f} GB/s", bw, l.bwMinGbps));
  if (l.latMaxUs > 0 && r.lat_us > l.latMaxUs)
    raise(Status::kFail, fmt::format("latency {:.1f} us is above the limit {:.1f} us", r.lat_us, l.latMaxUs));
  r.status = st;
  r.reason = fmt::format("{}", fmt::join(why, "; "));
}

std::string pairName(const PairRow& r) { return r.host_a + "-" + r.host_b; }

/// A pair's measurements as evidence, each entry sourced to the pair ("pair node1-node2").
void addPairEvidence(std::vector<Evidence>& out, const PairRow& r) {
  const std::string src = "pair " + pairName(r);
  out.push_back({"bandwidth " + r.host_a + "->" + r.host_b, r.bw_a_to_b_gbps, "GB/s", src});
  out.push_back({"bandwidth " + r.host_b + "->" + r.host_a, r.bw_b_to_a_gbps, "GB/s", src});
  out.push_back({"latency", r.lat_us, "us", src});
  out.push_back({"expected bandwidth", jsonOrNull(r.expected_gbps), "GB/s", src});
  out.push_back({"bandwidth of expected", jsonOrNull(r.pct_of_expected), "%", src});
  if (!r.reason.empty()) out.push_back({"reason", r.reason, "", src});
}

std::string pairList(const std::vector<PairRow>& rows, const std::vector<size_t>& idx) {
  std::vector<std::string> parts;
  for (size_t i : idx) {
    const PairRow& r = rows[i];
    parts.push_back(r.pct_of_expected ? fmt::format("{} {:.3f} GB/s ({:.0f}%), {:.1f} us", pairName(r), r.bwGbps(),
                                                    *r.pct_of_expected, r.lat_us)
                                      : fmt::format("{} {:.3f} GB/s, {:.1f} us", pairName(r), r.bwGbps(), r.lat_us));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

bool bandwidthProblem(const std::vector<PairRow>& rows, const std::vector<size_t>& idx) {
  for (size_t i : idx)
    if (rows[i].reason.find("bandwidth") != std::string::npos) return true;
  return false;
}

constexpr const char* kNodeBwRemedy =
    "drain {0} (Slurm: scontrol update nodename={0} state=drain reason=\"preflight: slow network\") and inspect its "
    "network link: speed and duplex (ethtool IFACE), error counters (ip -s link, ethtool -S IFACE), cable and switch "
    "port, traffic shaping (tc qdisc show); rerun `preflight pairs` to confirm the fix";
constexpr const char* kNodeLatRemedy =
    "drain {0} and look for what delays its small messages: CPU contention or a busy core, interrupt affinity, "
    "power-saving states, NIC firmware; rerun `preflight pairs` to confirm";

}  // namespace

PairAnalysis analyzePairs(std::vector<PairRow>& rows, const NodeMap& nodes, const PairLimits& limits,
                          const std::optional<double>& linkGbps, const std::string& linkSource,
                          const std::optional<Expectation>& majority) {
  // A node profile's declared pair busbw (expect.pair_busbw_gbs) takes the place of the one the link rates give.
  const std::optional<double> topologyGbps = limits.declaredBwGbps ? limits.declaredBwGbps : linkGbps;
  const std::string topologySource =
      limits.declaredBwGbps ? "the node profile's expect.pair_busbw_gbs (" + limits.declaredSource + ")" : linkSource;
  PairAnalysis a;
  const int n = nodes.nodeCount();
  a.expected = majority ? *majority : expectFromMajority(rows, n, limits.bwFailFraction, limits.latFailFactor);
  // When even the healthy majority misses the port rate by more than the fail limit, the whole run is slow: the
  // transport is not on the RDMA ports (MPI over TCP, NCCL on NET/Socket) or the fabric is. That is one finding
  // about the run, and the pairs are then judged against the majority, so a node is named only if it is slower
  // than the others. Judging every pair against the port rate would fail every node and drain the cluster.
  const bool runBelowTopology = topologyGbps && a.expected.relative && a.expected.bwGbps &&
                                *a.expected.bwGbps < limits.bwFailFraction * *topologyGbps;
  if (runBelowTopology) {
    Finding f;
    f.status = Status::kFail;
    f.check = "pairs.fabric";
    f.message = fmt::format(
        "the healthy majority of pairs reaches {:.3f} GB/s, {:.0f}% of the {:.3f} GB/s the ports allow ({}): the "
        "whole run is slow, not one node",
        *a.expected.bwGbps, 100.0 * *a.expected.bwGbps / *topologyGbps, *topologyGbps, topologySource);
    f.remedy =
        "a cluster-wide shortfall is configuration or fabric: check which transport carried the test (MPI: UCX, "
        "`--mca pml ucx`, UCX_NET_DEVICES; NCCL: NCCL_DEBUG=INFO shows NET/IB or NET/Socket, NCCL_IB_HCA), then the "
        "switch fabric (port speeds, congestion)";
    f.evidence.push_back({"median bandwidth of the pairs", *a.expected.bwGbps, "GB/s", "pair matrix"});
    f.evidence.push_back({"bandwidth the ports allow", *topologyGbps, "GB/s", topologySource});
    a.findings.push_back(std::move(f));
    a.status = Status::kFail;
    a.expected.source += fmt::format(" (the ports allow {:.3f} GB/s: see pairs.fabric)", *topologyGbps);
  } else if (topologyGbps) {
    a.expected.bwGbps = *topologyGbps;
    a.expected.fromTopology = true;
    a.expected.relative = true;  // a rate from the hardware is an expectation even for a single pair
    a.expected.source = (limits.declaredBwGbps ? "declared: " : "topology: ") + topologySource;
  }
  if (rows.empty()) return a;

  std::vector<double> bw, lat;
  for (const PairRow& r : rows) {
    bw.push_back(r.bwGbps());
    lat.push_back(r.lat_us);
  }
  a.medianBwGbps = stats::median(bw);
  a.madBwGbps = stats::mad(bw);
  a.medianLatUs = stats::median(lat);
  a.madLatUs = stats::mad(lat);
  for (PairRow& r : rows) {
    r.expected_gbps = a.expected.bwGbps;
    r.expected_lat_us = a.expected.latUs;
    if (a.expected.bwGbps && *a.expected.bwGbps > 0) r.pct_of_expected = 100.0 * r.bwGbps() / *a.expected.bwGbps;
    r.bw_robust_z = stats::robustZ(r.bwGbps(), a.medianBwGbps, a.madBwGbps);
    judgeRow(r, a.expected, limits);
    a.status = worst(a.status, r.status);
  }
  // Per node: the median of its pairs, and how far that sits from the other nodes'.
  std::vector<std::vector<double>> perNode(static_cast<size_t>(n));
  for (const PairRow& r : rows) {
    perNode[static_cast<size_t>(r.node_a)].push_back(r.bwGbps());
    perNode[static_cast<size_t>(r.node_b)].push_back(r.bwGbps());
  }
  for (const auto& v : perNode) a.nodeMedianBwGbps.push_back(v.empty() ? 0 : stats::median(v));
  const double nodeMed = stats::median(a.nodeMedianBwGbps), nodeMad = stats::mad(a.nodeMedianBwGbps);
  for (double v : a.nodeMedianBwGbps) a.nodeRobustZ.push_back(stats::robustZ(v, nodeMed, nodeMad));

  // Attribution, separately for failures and for warnings (a warning never hides behind a failing node).
  for (Status level : {Status::kFail, Status::kWarn}) {
    std::set<size_t> open;
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i].status == level) open.insert(i);
    while (!open.empty() && n >= 3) {
      std::vector<std::vector<size_t>> of(static_cast<size_t>(n));
      for (size_t i : open) {
        of[static_cast<size_t>(rows[i].node_a)].push_back(i);
        of[static_cast<size_t>(rows[i].node_b)].push_back(i);
      }
      auto best = std::max_element(of.begin(), of.end(), [](auto& x, auto& y) { return x.size() < y.size(); });
      const size_t count = best->size();
      if (count < 2 || 2 * count <= static_cast<size_t>(n - 1)) break;
      const int node = static_cast<int>(best - of.begin());
      const std::string& host = nodes.hosts[static_cast<size_t>(node)];
      Finding f;
      f.status = level;
      f.hosts = {host};
      const bool bwIssue = bandwidthProblem(rows, *best);
      f.check = bwIssue ? "pairs.node_bandwidth" : "pairs.node_latency";
      f.message = fmt::format("{}: {} of its {} pairs are {} ({}); expected {} ({})", host, count, n - 1,
                              bwIssue ? "slow" : "high-latency", pairList(rows, *best),
                              bwIssue ? fmt::format("{:.3f} GB/s", a.expected.bwGbps.value_or(0))
                                      : fmt::format("{:.1f} us", a.expected.latUs.value_or(0)),
                              a.expected.source);
      f.remedy = fmt::format(fmt::runtime(bwIssue ? kNodeBwRemedy : kNodeLatRemedy), host);
      for (size_t i : *best) addPairEvidence(f.evidence, rows[i]);
      f.evidence.push_back(
          {"median bandwidth of its pairs", a.nodeMedianBwGbps[static_cast<size_t>(node)], "GB/s", "node " + host});
      f.evidence.push_back(
          {"robust z-score of that median", a.nodeRobustZ[static_cast<size_t>(node)], "", "node " + host});
      a.findings.push_back(std::move(f));
      for (size_t i : std::vector<size_t>(*best)) open.erase(i);
    }
    // What no single node explains is a link between two nodes.
    for (size_t i : open) {
      const PairRow& r = rows[i];
      Finding f;
      f.status = level;
      f.check = "pairs.link";
      f.hosts = {r.host_a, r.host_b};
      f.message = fmt::format("link {}: {} (expected {:.3f} GB/s, {:.1f} us; {})", pairName(r), r.reason,
                              a.expected.bwGbps.value_or(0), a.expected.latUs.value_or(0), a.expected.source);
      f.remedy = n < 3 ? fmt::format(
                             "with two nodes the test cannot tell which end is at fault: rerun with a third "
                             "node, or check both NICs (ethtool, ip -s link) and the path between them")
                       : fmt::format(
                             "both nodes are fine with their other peers: check the path between {} and {} "
                             "(switch ports, cables, routing/ECMP); drain neither until it is found",
                             r.host_a, r.host_b);
      addPairEvidence(f.evidence, r);
      a.findings.push_back(std::move(f));
    }
  }
  return a;
}

namespace {

// Names the rail in a finding from one rail's analysis: its index, and each named node's NIC on it.
void labelRail(Finding& f, int rail, const std::vector<PairRow>& railRows) {
  std::vector<std::string> nics;
  for (const std::string& host : f.hosts)
    for (const PairRow& r : railRows)
      if (r.host_a == host || r.host_b == host) {
        const std::string& nic = r.host_a == host ? r.nic_a : r.nic_b;
        nics.push_back(host + " " + nic);
        f.evidence.push_back({"NIC on rail " + std::to_string(rail), nic, "", "node " + host});
        break;
      }
  f.message = fmt::format("rail {} ({}): {}", rail, fmt::join(nics, ", "), f.message);
  f.remedy = fmt::format(
      "the slow rail is {}: check that NIC's cable, transceiver and switch port (ethtool -S, "
      "perfquery, ibdiagnet); {}",
      fmt::join(nics, " and "), f.remedy);
}

}  // namespace

PairAnalysis analyzePairsByRail(std::vector<PairRow>& rows, const NodeMap& nodes, const PairLimits& limits,
                                const std::optional<double>& topologyGbps, const std::string& topologySource,
                                const std::optional<Expectation>& majority) {
  std::set<int> rails;
  for (const PairRow& r : rows)
    if (r.rail >= 0) rails.insert(r.rail);
  if (rails.empty()) return analyzePairs(rows, nodes, limits, topologyGbps, topologySource, majority);
  // One expectation for every rail: a rail is slow against its peers, and a rail slow on every node still shows.
  const Expectation pooled =
      majority ? *majority : expectFromMajority(rows, nodes.nodeCount(), limits.bwFailFraction, limits.latFailFactor);
  PairAnalysis a = analyzePairs(rows, nodes, limits, topologyGbps, topologySource, pooled);
  // The rows' verdicts stand (one expectation, the same limits); the culprits are found rail by rail.
  std::vector<Finding> runWide;
  for (Finding& f : a.findings)
    if (f.check == "pairs.fabric") runWide.push_back(std::move(f));
  a.findings = std::move(runWide);
  for (int rail : rails) {
    std::vector<PairRow> railRows;
    for (const PairRow& r : rows)
      if (r.rail == rail) railRows.push_back(r);
    PairAnalysis ra = analyzePairs(railRows, nodes, limits, topologyGbps, topologySource, pooled);
    for (Finding& f : ra.findings) {
      if (f.check == "pairs.fabric") continue;
      labelRail(f, rail, railRows);
      a.findings.push_back(std::move(f));
    }
  }
  return a;
}

}  // namespace pf::check

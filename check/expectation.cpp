// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "expectation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "pf/stats.hpp"

namespace pf::check {
namespace {

// The higher of the two middle values for an even count, the middle one for an odd count.
double upperMedian(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

std::optional<double> expectFromLinks(const std::vector<NodeLinks>& nodes, int portsUsed) {
  if (nodes.empty() || portsUsed < 1) return std::nullopt;
  double slowest = std::numeric_limits<double>::max();
  for (const NodeLinks& n : nodes) {
    std::vector<double> rates;
    for (double r : n.portRatesGbit)
      if (r > 0) rates.push_back(r);
    if (rates.empty()) return std::nullopt;  // one unknown node makes the whole figure unknown
    // The engine drives its `portsUsed` fastest ports.
    std::sort(rates.rbegin(), rates.rend());
    double sum = 0;
    for (size_t i = 0; i < rates.size() && i < static_cast<size_t>(portsUsed); ++i) sum += rates[i];
    slowest = std::min(slowest, sum);
  }
  return slowest / 8.0;  // Gbit/s -> GB/s
}

Expectation expectFromMajority(const std::vector<PairRow>& rows, int nodeCount, double failFraction,
                               double latFailFactor) {
  Expectation e;
  if (rows.empty()) {
    e.source = "no pairs measured";
    e.relative = false;
    return e;
  }
  if (nodeCount < 3) {
    // One pair: nothing to compare it with. Report it, judge it only by absolute limits.
    e.bwGbps = rows.front().bwGbps();
    e.latUs = rows.front().lat_us;
    e.relative = false;
    e.source = "a single pair: no majority to derive an expectation from (absolute limits only)";
    return e;
  }
  // Each node's upper median pair (robust while fewer than half of a node's pairs are bad: a healthy node has
  // one bad pair, the one with the slow node), then the median over nodes (robust while most nodes are healthy).
  std::vector<std::vector<double>> bwOf(static_cast<size_t>(nodeCount)), latOf(static_cast<size_t>(nodeCount));
  for (const PairRow& r : rows) {
    for (int n : {r.node_a, r.node_b}) {
      bwOf[static_cast<size_t>(n)].push_back(r.bwGbps());
      latOf[static_cast<size_t>(n)].push_back(-r.lat_us);  // negated: the "upper" latency median is the lower one
    }
  }
  std::vector<double> nodeBw, nodeLat;
  for (size_t n = 0; n < bwOf.size(); ++n) {
    if (bwOf[n].empty()) continue;
    nodeBw.push_back(upperMedian(bwOf[n]));
    nodeLat.push_back(-upperMedian(latOf[n]));
  }
  const double bw0 = stats::median(nodeBw), lat0 = stats::median(nodeLat);
  // Then the typical healthy pair: the median of the pairs within the fail limits of that first estimate.
  std::vector<double> bw, lat;
  for (const PairRow& r : rows) {
    if (r.bwGbps() >= failFraction * bw0) bw.push_back(r.bwGbps());
    if (r.lat_us <= latFailFactor * lat0) lat.push_back(r.lat_us);
  }
  e.bwGbps = bw.empty() ? bw0 : stats::median(bw);
  if (bw.size() >= Expectation::kMinPairsForSpread) {
    std::vector<double> logBw;
    for (double b : bw)
      if (b > 0) logBw.push_back(std::log(b));
    if (logBw.size() >= Expectation::kMinPairsForSpread) e.bwLogSpread = 1.4826 * stats::mad(logBw);
  }
  e.latUs = lat.empty() ? lat0 : stats::median(lat);
  e.source = fmt::format("healthy majority: median of {} of {} pairs (no link rate known for these interfaces)",
                         bw.size(), rows.size());
  return e;
}

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "fabric_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "pf/error.hpp"

namespace pf::scaling {

std::string Allocation::label() const { return fmt::format("{}x{}", nodes, ranksPerNode); }

namespace {

int positiveInt(std::string_view s, const std::string& whole) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 1)
    throw UsageError(
        fmt::format("--predict '{}': expected NODESxRANKS_PER_NODE (e.g. 8x16) or a rank count (e.g. "
                    "64), with positive whole numbers",
                    whole));
  return v;
}

const AlphaBeta& fitFor(const CommModel& m, double bytes) { return bytes < m.splitBytes ? m.small : m.large; }

struct Terms {
  double latency = 0, bandwidth = 0;
  double total() const { return latency + bandwidth; }
};

}  // namespace

Allocation parseAllocation(const std::string& text, int ranksPerNode) {
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos) {
    const int n = positiveInt(text, text);
    const int r = std::max(1, std::min(ranksPerNode, n));
    return {(n + r - 1) / r, r};
  }
  Allocation a{positiveInt(std::string_view(text).substr(0, x), text),
               positiveInt(std::string_view(text).substr(x + 1), text)};
  return a;
}

namespace {

// NVLS's start-up: NCCL's tuner takes 25 us on NVLink for it (hwLat[NVLINK][NVLS][SIMPLE] in src/graph/tuning.cc,
// NCCL 2.2x) against 3.4 us per ring step; two of the swept intra-node steps are the floor when they are slower.
constexpr double kNvlsLatencyUs = 25.0;

// One algorithm's cost at the level that bounds it; allReduce() keeps the cheapest, as NCCL's tuner picks.
struct Candidate {
  Terms t;
  bool inter = false;
  const char* algorithm = "";
  bool inSwitch = false;
};

void keepCheaper(std::optional<Candidate>& best, const Candidate& c) {
  if (!best || c.t.total() < best->t.total()) best = c;
}

}  // namespace

AllReduceCost FabricModel::allReduce(double bytes, const Allocation& a) const {
  const int n = a.ranks();
  if (n <= 1) return {};
  // Within one node, or only one level measured (it then serves every allocation; the caller says so).
  const bool acrossNodes = a.nodes > 1 && inter;
  const double n1 = n - 1.0, steps = 2.0 * n1, perStep = bytes / n;
  const bool nvls = inSwitch && inSwitch->nvls && a.ranksPerNode > 1;
  std::optional<Candidate> best;
  if (!acrossNodes) {
    const bool useIntra = intra.has_value();
    const AlphaBeta& ab = fitFor(useIntra ? intra->fit : inter->fit, bytes);
    const double beta = useIntra ? ab.betaUsPerB : ab.betaUsPerB / interBandwidthFactor;
    keepCheaper(best, {{steps * ab.alphaUs, steps * perStep * beta}, !useIntra, "ring"});
    if (!ringOnly)
      keepCheaper(best,
                  {{2.0 * std::log2(static_cast<double>(n)) * ab.alphaUs, 2.0 * bytes * beta}, !useIntra, "tree"});
    // NVLS: the switch reads every GPU's share and multicasts the sum, so each GPU sends and receives
    // S (1 + 1/n) over its NVLink ports in two phases, against the ring's 2 (n-1)/n S in 2 (n-1) steps.
    if (nvls && useIntra && a.nodes == 1 && !ringOnly)
      keepCheaper(best,
                  {{std::max(kNvlsLatencyUs, 2.0 * ab.alphaUs), (1.0 + 1.0 / n) * bytes * beta}, false, "nvls", true});
    const Candidate& c = *best;
    return {c.t.total(), c.t.latency, c.t.bandwidth, useIntra ? "intra-node" : "inter-node",
            c.algorithm, ab.relError, c.inSwitch};
  }
  // Across nodes: a ring step lasts as long as its slowest hop.
  const AlphaBeta& e = fitFor(inter->fit, bytes);
  const double interBeta = e.betaUsPerB / interBandwidthFactor;
  double intraAlpha = 0, intraBeta = 0, intraErr = 0;  // one rank per node: no hop inside a node
  if (intra && a.ranksPerNode > 1) {
    const AlphaBeta& i = fitFor(intra->fit, bytes);
    intraAlpha = i.alphaUs, intraBeta = i.betaUsPerB, intraErr = i.relError;
  }
  const bool ringInter = e.alphaUs + perStep * interBeta >= intraAlpha + perStep * intraBeta;
  keepCheaper(best, ringInter ? Candidate{{steps * e.alphaUs, steps * perStep * interBeta}, true, "ring"}
                              : Candidate{{steps * intraAlpha, steps * perStep * intraBeta}, false, "ring"});
  // The tree's pipeline also moves all S bytes through a chain inside each node: as slow as the slower level.
  const double treeAlpha = 2.0 * std::log2(static_cast<double>(n)) * e.alphaUs;
  if (!ringOnly)
    keepCheaper(best, {{treeAlpha, 2.0 * bytes * std::max(interBeta, intraBeta)}, interBeta >= intraBeta, "tree"});
  const double nodes = a.nodes, r = a.ranksPerNode;
  if (nvls && !ringOnly) {
    // NVLS_TREE: NVLS inside each node, a tree between the nodes (2 S through each node's NICs).
    const double inside = (1.0 + 1.0 / r) * intraBeta, between = 2.0 * interBeta;
    const double start = std::max(kNvlsLatencyUs, 2.0 * intraAlpha) + 2.0 * std::log2(nodes) * e.alphaUs;
    keepCheaper(best, {{start, bytes * std::max(inside, between)}, between >= inside, "nvls_tree", true});
  }
  if (inSwitch && inSwitch->collNet && !ringOnly) {
    // CollNet (direct): a reduce-scatter inside the node, each share summed by the network switches (each
    // node's NICs send S and receive S once, whatever the node count), then an all-gather inside the node.
    const double inside = 2.0 * (r - 1.0) / r * intraBeta;
    keepCheaper(best, {{2.0 * e.alphaUs + 2.0 * (r - 1.0) * intraAlpha, bytes * std::max(inside, interBeta)},
                       interBeta >= inside,
                       "collnet",
                       true});
  }
  const Candidate& c = *best;
  return {c.t.total(),   c.t.latency,
          c.t.bandwidth, c.inter ? "inter-node" : "intra-node",
          c.algorithm,   c.inter ? e.relError : intraErr,
          c.inSwitch};
}

FabricModel fabricModelFromLevels(std::vector<LevelFit> levels) {
  FabricModel m;
  for (LevelFit& l : levels) {
    std::optional<LevelFit>& slot = l.nodes > 1 ? m.inter : m.intra;
    if (slot)
      throw UsageError(
          fmt::format("--from: {} and {} both ran {}; give one sweep within one node and one across two or more nodes",
                      slot->source, l.source, l.nodes > 1 ? "across nodes" : "within one node"));
    slot = std::move(l);
  }
  if (!m.intra && !m.inter) throw UsageError("--from: no all_reduce sweep given");
  return m;
}

void addNics(FabricModel& m, NicSet nics) {
  if (!m.inter && m.intra && nics.bytesPerUs() > 0) {
    LevelFit l;
    l.fit = m.intra->fit;  // alpha and the size split from inside a node: a network hop is no faster
    for (AlphaBeta* ab : {&l.fit.small, &l.fit.large}) ab->betaUsPerB = 1.0 / nics.bytesPerUs(), ab->relError = 0;
    l.ranks = l.nodes = 2;
    l.source = "line rate of " + nics.describe() + "; not measured";
    m.inter = std::move(l);
    m.interFromLineRate = true;
  }
  m.nics = std::move(nics);
}

double lineRateFraction(const FabricModel& m) {
  if (!m.inter || m.interFromLineRate || !m.nics || m.nics->bytesPerUs() <= 0) return 0;
  const double beta = m.inter->fit.large.betaUsPerB;
  return beta > 0 ? 1.0 / beta / m.nics->bytesPerUs() : 0;
}

}  // namespace pf::scaling

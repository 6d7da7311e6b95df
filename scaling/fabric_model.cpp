// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "fabric_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

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

AllReduceCost FabricModel::allReduce(double bytes, const Allocation& a) const {
  const int n = a.ranks();
  if (n <= 1) return {};
  // Within one node, or only one level measured (it then serves every allocation; the caller says so).
  const bool acrossNodes = a.nodes > 1 && inter;
  const double n1 = n - 1.0, steps = 2.0 * n1, perStep = bytes / n;
  if (!acrossNodes) {
    const bool useIntra = intra.has_value();
    const AlphaBeta& ab = fitFor(useIntra ? intra->fit : inter->fit, bytes);
    const double beta = useIntra ? ab.betaUsPerB : ab.betaUsPerB / interBandwidthFactor;
    const Terms ring{steps * ab.alphaUs, steps * perStep * beta};
    const Terms tree{2.0 * std::log2(static_cast<double>(n)) * ab.alphaUs, 2.0 * bytes * beta};
    const bool useRing = ring.total() <= tree.total();
    const Terms& t = useRing ? ring : tree;
    return {t.total(),  t.latency, t.bandwidth, useIntra ? "intra-node" : "inter-node", useRing ? "ring" : "tree",
            ab.relError};
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
  const Terms ring = ringInter ? Terms{steps * e.alphaUs, steps * perStep * interBeta}
                               : Terms{steps * intraAlpha, steps * perStep * intraBeta};
  // The tree's pipeline also moves all S bytes through a chain inside each node: as slow as the slower level.
  const bool treeInter = interBeta >= intraBeta;
  const Terms tree{2.0 * std::log2(static_cast<double>(n)) * e.alphaUs, 2.0 * bytes * std::max(interBeta, intraBeta)};
  const bool useRing = ring.total() <= tree.total();
  const Terms& t = useRing ? ring : tree;
  const bool interBound = useRing ? ringInter : treeInter;
  return {t.total(),
          t.latency,
          t.bandwidth,
          interBound ? "inter-node" : "intra-node",
          useRing ? "ring" : "tree",
          interBound ? e.relError : intraErr};
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

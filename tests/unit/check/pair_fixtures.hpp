// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Synthetic pair matrices for the analysis tests: every pair of `n` nodes named node0.., a healthy bandwidth
// with a deterministic +-10% ripple, and chosen nodes or links slowed.
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "node_map.hpp"
#include "pair_row.hpp"
#include "tournament.hpp"

namespace pf::check::testing {

struct Matrix {
  NodeMap nodes;
  std::vector<PairRow> rows;
};

inline Matrix makeMatrix(int n, double healthyGbps, const std::set<int>& slowNodes = {},
                         const std::set<std::pair<int, int>>& slowLinks = {}, double slowGbps = 0.025,
                         double latUs = 40) {
  Matrix m;
  std::vector<std::string> hosts;
  for (int i = 0; i < n; ++i) hosts.push_back("node" + std::to_string(i));
  m.nodes = groupByHost(hosts);
  auto rounds = tournamentRounds(n);
  int k = 0;
  for (size_t r = 0; r < rounds.size(); ++r)
    for (auto [a, b] : rounds[r]) {
      PairRow row;
      row.round = static_cast<int>(r);
      row.node_a = a;
      row.node_b = b;
      row.host_a = hosts[a];
      row.host_b = hosts[b];
      row.engine = "test";
      row.size_bytes = 4 << 20;
      const double ripple = 1.0 + 0.1 * ((k++ % 5) - 2) / 2.0;  // 0.9 .. 1.1
      double bw = healthyGbps * ripple;
      if (slowNodes.count(a) || slowNodes.count(b) || slowLinks.count({a, b})) bw = slowGbps;
      row.bw_a_to_b_gbps = bw;
      row.bw_b_to_a_gbps = bw * 1.01;
      row.lat_us = latUs * ripple;
      m.rows.push_back(row);
    }
  return m;
}

}  // namespace pf::check::testing

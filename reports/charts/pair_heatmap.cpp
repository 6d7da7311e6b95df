// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pair test as a node x node heatmap. `gbps` holds each direction on its own (row = sender, column =
// receiver: a->b in row a, b->a in row b), as measured, for the drawing; `cells` keeps the pair's % of the
// expected bandwidth (the slower direction, as the analysis judges it), both cells of a pair the same. The
// colour scale runs from 0 to the expected bandwidth (or the largest measured one where nothing was expected);
// the failing nodes and links are listed beside it from the pairs' own status and reason.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "chart_model.hpp"
#include "pf/pair_row.hpp"

namespace pf::reports::charts {

Heatmap pairHeatmap(const Result& pairs) {
  Heatmap h;
  h.id = "pairs.matrix";
  h.title = "node-pair bandwidth (GB/s), row sends to column";
  h.unit = "%";
  if (pairs.kind != Kind::kPairs) return h;
  std::vector<PairRow> rows;
  for (const Json& j : pairs.rows) rows.push_back(pairRowFromJson(j));
  std::map<int, std::string> names;
  for (const PairRow& r : rows) {
    names[r.node_a] = r.host_a;
    names[r.node_b] = r.host_b;
  }
  std::map<int, size_t> index;
  for (const auto& [node, host] : names) {
    index[node] = h.nodes.size();
    h.nodes.push_back(host);
  }
  h.cells.assign(h.nodes.size(), std::vector<std::optional<double>>(h.nodes.size()));
  h.gbps = h.cells;
  // With several rails (check --rails) a pair has one row per rail: its cell shows the slowest rail, so a slow
  // rail is never hidden behind a healthy one, and the failing list names the rail.
  std::set<int> rails;
  for (const PairRow& r : rows)
    if (r.rail >= 0) rails.insert(r.rail);
  auto keepLowest = [](std::optional<double>& cell, std::optional<double> v) {
    if (v && (!cell || *v < *cell)) cell = v;
  };
  double largest = 0;
  for (const PairRow& r : rows) {
    const size_t a = index[r.node_a], b = index[r.node_b];
    keepLowest(h.cells[a][b], r.pct_of_expected);
    h.cells[b][a] = h.cells[a][b];
    keepLowest(h.gbps[a][b], r.bw_a_to_b_gbps);
    keepLowest(h.gbps[b][a], r.bw_b_to_a_gbps);
    largest = std::max({largest, r.bw_a_to_b_gbps, r.bw_b_to_a_gbps});
    if (r.expected_gbps && *r.expected_gbps > 0)
      h.expected_gbps = std::max(h.expected_gbps.value_or(0), *r.expected_gbps);
    if (r.status == Status::kFail || r.status == Status::kWarn)
      h.failing.push_back(r.rail >= 0 ? fmt::format("{} {}-{} rail {} ({}, {}): {}", toString(r.status), r.host_a,
                                                    r.host_b, r.rail, r.nic_a, r.nic_b, r.reason)
                                      : fmt::format("{} {}-{}: {}", toString(r.status), r.host_a, r.host_b, r.reason));
  }
  if (rails.size() > 1) {
    h.rails = static_cast<int>(rails.size());
    h.title += fmt::format(", the slowest of {} rails in each cell", h.rails);
  }
  h.scale_max_gbps = h.expected_gbps.value_or(largest);
  return h;
}

}  // namespace pf::reports::charts

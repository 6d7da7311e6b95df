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
  double largest = 0;
  for (const PairRow& r : rows) {
    const size_t a = index[r.node_a], b = index[r.node_b];
    h.cells[a][b] = h.cells[b][a] = r.pct_of_expected;
    h.gbps[a][b] = r.bw_a_to_b_gbps;
    h.gbps[b][a] = r.bw_b_to_a_gbps;
    largest = std::max({largest, r.bw_a_to_b_gbps, r.bw_b_to_a_gbps});
    if (r.expected_gbps && *r.expected_gbps > 0)
      h.expected_gbps = std::max(h.expected_gbps.value_or(0), *r.expected_gbps);
    if (r.status == Status::kFail || r.status == Status::kWarn)
      h.failing.push_back(fmt::format("{} {}-{}: {}", toString(r.status), r.host_a, r.host_b, r.reason));
  }
  h.scale_max_gbps = h.expected_gbps.value_or(largest);
  return h;
}

}  // namespace pf::reports::charts

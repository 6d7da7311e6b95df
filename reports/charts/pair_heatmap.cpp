// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pair test as a node x node heatmap: each cell is the pair's bandwidth as % of the expected bandwidth (the
// slower direction, as the analysis judges it), both cells of a pair the same; the failing nodes and links are
// listed beside it from the pairs' own status and reason.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "chart_model.hpp"
#include "pf/pair_row.hpp"

namespace pf::reports::charts {

Heatmap pairHeatmap(const Result& pairs) {
  Heatmap h;
  h.id = "pairs.matrix";
  h.title = "node-pair bandwidth, % of expected";
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
  for (const PairRow& r : rows) {
    const size_t a = index[r.node_a], b = index[r.node_b];
    h.cells[a][b] = h.cells[b][a] = r.pct_of_expected;
    if (r.status == Status::kFail || r.status == Status::kWarn)
      h.failing.push_back(fmt::format("{} {}-{}: {}", toString(r.status), r.host_a, r.host_b, r.reason));
  }
  return h;
}

}  // namespace pf::reports::charts

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The check history as charts, against the history's run number (runs are numbered in the order they were
// recorded; the table gives each run's time): each node's median pair bandwidth, one line per node, and where
// checks ran on one node alone, its all-reduce busbw. Values are the rows of the `history.bandwidth` result.
#include "history_charts.hpp"

#include <algorithm>
#include <cmath>

namespace pf::reports::charts {
namespace {

// One line per node of the rows' `field`, in the order the rows first name the nodes; nodes without a value
// for it have no line.
std::vector<Series> perNode(const Result& r, const char* field) {
  std::vector<Series> out;
  for (const Json& row : r.rows) {
    const Json& v = row.contains(field) ? row.at(field) : Json();
    if (!v.is_number() || !row.contains("run") || !row.contains("host")) continue;
    const std::string host = row.at("host").get<std::string>();
    auto it = std::find_if(out.begin(), out.end(), [&](const Series& s) { return s.name == host; });
    if (it == out.end()) it = out.insert(out.end(), Series{host, Style::kLine, false, {}});
    it->points.push_back({row.at("run").get<double>(), v.get<double>(), {}, {}});
  }
  return out;
}

}  // namespace

std::vector<Chart> historyCharts(const Result& bandwidth) {
  std::vector<Chart> out;
  if (bandwidth.key != "history.bandwidth") return out;
  const Axis runs{"run", "", Scale::kLinear, false};
  Chart pairs{"history.pair_median",
              "median pair bandwidth per node, by run",
              runs,
              {"bandwidth", "GB/s", Scale::kLinear, false},
              perNode(bandwidth, "pair_median_gbps")};
  Chart allreduce{"history.allreduce",
                  "all-reduce busbw of one-node checks, by run",
                  runs,
                  {"bus bandwidth", "GB/s", Scale::kLinear, false},
                  perNode(bandwidth, "allreduce_busbw_gbps")};
  for (Chart* c : {&pairs, &allreduce}) {
    if (c->series.empty()) continue;
    fitAxes(*c);
    // Runs are whole numbers: a tick at run 2.5 would name no run.
    std::erase_if(c->x.ticks, [](const Tick& t) { return t.value != std::floor(t.value); });
    out.push_back(std::move(*c));
  }
  return out;
}

}  // namespace pf::reports::charts

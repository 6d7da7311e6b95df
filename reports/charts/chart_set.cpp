// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Which charts a document gets, in the order a report shows them: comparisons first (grouped by the BASE
// result they compare), then each sweep's (the sweeps of one collective overlaid, one line per run), scaling
// run's and pair matrix's own.
#include <algorithm>

#include "chart_model.hpp"
#include "history_charts.hpp"
#include "pf/sweep_row.hpp"

namespace pf::reports::charts {

ChartSet chartsFor(const RunReport& report) {
  ChartSet set;
  // Comparisons of one BASE result with several NEW runs share a chart, in the order they came.
  std::vector<std::pair<std::string, std::vector<const Result*>>> groups;
  for (const Result& r : report.results) {
    if (r.kind != Kind::kComparison) continue;
    const std::string key = r.params.value("base_key", r.key) + "@" + r.host;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
    if (it == groups.end()) it = groups.insert(groups.end(), {key, {}});
    it->second.push_back(&r);
  }
  for (const auto& [key, group] : groups) {
    auto c = compareCharts(group);
    set.charts.insert(set.charts.end(), c.begin(), c.end());
  }
  // Sweeps of one collective share charts, placed where the first of them comes.
  std::vector<std::pair<std::string, std::vector<const Result*>>> sweeps;
  for (const Result& r : report.results) {
    if (r.kind != Kind::kSweep) continue;
    const std::string collective = sweepParamsFromJson(r.params).collective;
    auto it = std::find_if(sweeps.begin(), sweeps.end(), [&](const auto& g) { return g.first == collective; });
    if (it == sweeps.end()) it = sweeps.insert(sweeps.end(), {collective, {}});
    it->second.push_back(&r);
  }
  for (const Result& r : report.results) {
    if (r.kind == Kind::kSweep) {
      const std::string collective = sweepParamsFromJson(r.params).collective;
      auto it = std::find_if(sweeps.begin(), sweeps.end(), [&](const auto& g) { return g.first == collective; });
      if (it->second.front() != &r) continue;  // drawn with the first run of its collective
      auto c = sweepCharts(it->second);
      set.charts.insert(set.charts.end(), c.begin(), c.end());
    } else if (r.kind == Kind::kScale || r.kind == Kind::kPlan) {
      auto c = r.kind == Kind::kScale ? scaleCharts(r) : planCharts(r);
      set.charts.insert(set.charts.end(), c.begin(), c.end());
    } else if (r.key == "history.bandwidth") {
      auto c = historyCharts(r);
      set.charts.insert(set.charts.end(), c.begin(), c.end());
    } else if (r.kind == Kind::kPairs && !r.rows.empty()) {
      set.heatmaps.push_back(pairHeatmap(r));
    }
  }
  return set;
}

}  // namespace pf::reports::charts

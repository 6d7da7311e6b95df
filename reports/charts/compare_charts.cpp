// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A comparison as charts, one per compared result of BASE with every NEW run overlaid:
//   sweeps   busbw against size, BASE and each NEW (at the same statistic compare judged, so a chart never
//            disagrees with the table), and the change of the judged figure against size, signed so that + is
//            better (busbw up, time down), with the limit below which a size regressed as a line;
//   scaling  throughput against world size, BASE and each NEW.
// The sizes (world sizes) compare flagged as regressions are a series of their own on both charts, marked as
// alarms, so that a regression is seen without reading the table.
// Pair comparisons are tables only: pairs have no order to draw a line through.
#include <map>

#include "chart_model.hpp"
#include "pf/comparison_row.hpp"

namespace pf::reports::charts {

std::vector<Chart> compareCharts(const std::vector<const Result*>& group) {
  std::vector<Chart> out;
  if (group.empty()) return out;
  const Json& p = group.front()->params;
  const std::string key = p.value("base_key", group.front()->key);
  const std::string kind = p.value("base_kind", "");
  if (kind != "sweep" && kind != "scale") return out;
  const bool sweep = kind == "sweep";
  const Axis x = sweep ? Axis{"message size", "bytes", Scale::kLog2, true} : Axis{"world size", "ranks", Scale::kLog2};
  Chart level{"compare." + key + (sweep ? ".busbw" : ".throughput"),
              key + (sweep ? ": bus bandwidth" : ": throughput"),
              x,
              sweep ? Axis{"bus bandwidth", "GB/s"} : Axis{"throughput", "samples/s"},
              {}};
  Chart change{"compare." + key + ".change",
               key + ": change from BASE (+ = better)",
               x,
               Axis{"change of the judged figure", "%"},
               {}};
  std::map<std::string, Series> baseLines;  // one BASE line per subject (e.g. "float sum")
  for (const Result* r : group) {
    std::map<std::string, Series> lines, changes, flagged, flaggedChange;
    for (const Json& j : r->rows) {
      const ComparisonRow row = comparisonRowFromJson(j);
      if (!sweep && row.metric != "throughput_sps") continue;
      const std::string subject = sweep ? " (" + row.subject + ")" : "";
      const double b = sweep ? row.base_busbw_gbps.value_or(0) : row.base;
      const double v = sweep ? row.new_busbw_gbps.value_or(0) : row.value;
      auto& base = baseLines[subject];
      if (base.name.empty()) base = {"BASE" + subject, Style::kLine, false, {}};
      if (r == group.front()) base.points.push_back({row.x, b, {}, {}});
      auto& line = lines[subject];
      if (line.name.empty()) line = {row.new_label + subject, Style::kLine, false, {}};
      line.points.push_back({row.x, v, {}, {}});
      auto& ch = changes[subject];
      if (ch.name.empty()) ch = {row.new_label + subject, Style::kMarkers, false, {}};
      const double better = row.higher_is_better ? row.change_pct : -row.change_pct;
      ch.points.push_back({row.x, better, {}, {}});
      if (row.regressed) {
        auto& f = flagged[subject];
        if (f.name.empty()) f = {"regressed: " + row.new_label + subject, Style::kMarkers, false, {}, true};
        f.points.push_back({row.x, v, {}, {}});
        auto& fc = flaggedChange[subject];
        if (fc.name.empty()) fc = {"regressed: " + row.new_label + subject, Style::kMarkers, false, {}, true};
        fc.points.push_back({row.x, better, {}, {}});
      }
    }
    if (r == group.front())
      for (auto& [s, series] : baseLines) level.series.push_back(series);
    for (auto& [s, series] : lines) level.series.push_back(std::move(series));
    for (auto& [s, series] : changes) change.series.push_back(std::move(series));
    for (auto& [s, series] : flagged) level.series.push_back(std::move(series));
    for (auto& [s, series] : flaggedChange) change.series.push_back(std::move(series));
  }
  out.push_back(std::move(level));
  if (sweep && !change.series.empty()) {
    const double limit = group.front()->metrics.value("limit_pct", 0.0);
    const double lo = change.series.front().points.front().x, hi = change.series.front().points.back().x;
    change.series.push_back({"regression limit", Style::kIdeal, false, {{lo, -limit, {}, {}}, {hi, -limit, {}, {}}}});
    out.push_back(std::move(change));
  }
  for (Chart& c : out) fitAxes(c);
  return out;
}

}  // namespace pf::reports::charts

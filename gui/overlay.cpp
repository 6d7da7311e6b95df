// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "overlay.hpp"

#include <algorithm>
#include <map>

namespace pf::gui {
namespace {

// The axes of a chart merged from several files, fitted as the model fits one file's (fitAxes), except that
// stacked bars stand per file: the y axis holds the tallest file's stack, not all files' stacks summed.
void fitMerged(ViewChart& vc) {
  using reports::charts::Style;
  reports::charts::Chart probe = vc.chart;
  probe.series.clear();
  std::map<std::pair<int, double>, double> stacks;  // (file, x) -> that file's stack height
  for (size_t i = 0; i < vc.chart.series.size(); ++i) {
    const auto& s = vc.chart.series[i];
    if (s.style != Style::kStacked) {
      probe.series.push_back(s);
      continue;
    }
    for (const auto& p : s.points) stacks[{vc.run[i], p.x}] += p.y;
  }
  if (!stacks.empty()) {
    std::map<double, double> tallest;
    for (const auto& [key, height] : stacks) tallest[key.second] = std::max(tallest[key.second], height);
    reports::charts::Series bars{"", Style::kStacked, false, {}};
    for (const auto& [x, height] : tallest) bars.points.push_back({x, height, {}, {}});
    probe.series.push_back(std::move(bars));
  }
  reports::charts::fitAxes(probe);
  vc.chart.x = probe.x;
  vc.chart.y = probe.y;
}

}  // namespace

std::vector<std::string> runNames(const std::vector<Document>& docs) {
  std::vector<std::string> names;
  for (const Document& doc : docs) {
    // Two files of one name (run/a/sweep.json, run/b/sweep.json) must not share a legend name.
    std::string name = doc.name;
    for (int k = 2; std::find(names.begin(), names.end(), name) != names.end(); ++k)
      name = doc.name + " (" + std::to_string(k) + ")";
    names.push_back(name);
  }
  return names;
}

std::vector<ViewChart> overlayCharts(const std::vector<Document>& docs) {
  std::vector<ViewChart> out;
  const std::vector<std::string> names = runNames(docs);
  for (size_t d = 0; d < docs.size(); ++d) {
    for (const reports::charts::Chart& chart : docs[d].charts.charts) {
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& c) { return c.chart.id == chart.id; });
      if (it == out.end()) {
        it = out.insert(out.end(), ViewChart{chart, {}, names});
        it->chart.series.clear();
      }
      for (const reports::charts::Series& s : chart.series) {
        it->chart.series.push_back(s);
        it->run.push_back(static_cast<int>(d));
      }
    }
  }
  if (docs.size() > 1)
    for (ViewChart& vc : out) fitMerged(vc);
  return out;
}

}  // namespace pf::gui

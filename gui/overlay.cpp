// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "overlay.hpp"

#include <algorithm>

namespace pf::gui {

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
  return out;
}

}  // namespace pf::gui

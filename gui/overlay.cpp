// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "overlay.hpp"

#include <algorithm>

namespace pf::gui {

std::vector<reports::charts::Chart> overlayCharts(const std::vector<Document>& docs) {
  std::vector<reports::charts::Chart> out;
  const bool prefix = docs.size() > 1;
  for (const Document& doc : docs) {
    for (const reports::charts::Chart& chart : doc.charts.charts) {
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& c) { return c.id == chart.id; });
      if (it == out.end()) {
        it = out.insert(out.end(), chart);
        it->series.clear();
      }
      for (reports::charts::Series s : chart.series) {
        if (prefix) s.name = doc.name + ": " + s.name;
        it->series.push_back(std::move(s));
      }
    }
  }
  return out;
}

}  // namespace pf::gui

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pair matrix as SVG: row = sender, column = receiver, so a->b and b->a are two cells, each labelled with its
// bandwidth in GB/s and coloured from red (0) through yellow to green (the expected bandwidth, the colour scale's
// top; faster stays green). A colour scale beside the matrix says which GB/s each colour means. No gradient
// (url(#...)): the page loads nothing and says so in a test, so the scale is drawn as steps.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "svg.hpp"

namespace pf::reports::html {
namespace {

std::string heatColour(double fraction) {
  return fmt::format("hsl({:.0f},70%,{:.0f}%)", 120 * std::clamp(fraction, 0.0, 1.0), 55.0);
}

}  // namespace

std::string svgHeatmap(const charts::Heatmap& hm) {
  const size_t n = hm.nodes.size();
  const double cell = std::clamp(560.0 / std::max<size_t>(n, 1), 18.0, 72.0);
  const bool labelled = cell >= 40;  // room for "12.3" in a cell
  const double left = 150, top = 76, matrix = cell * static_cast<double>(n);
  const double scaleX = left + matrix + 40, scaleH = std::max(matrix, 160.0);
  const double width = scaleX + 150, height = top + scaleH + 30;
  const double top_gbps = hm.scale_max_gbps > 0 ? hm.scale_max_gbps : 1;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heatmap\" id=\"{}\" viewBox=\"0 0 {} {}\" width=\"100%\" "
      "style=\"max-width:{}px\" role=\"img\"><title>{}</title>\n<text x=\"4\" y=\"18\" class=\"ct\">{}</text>\n",
      escape(hm.id), width, height, width, escape(hm.title), escape(hm.title));
  svg += fmt::format("<text class=\"cl\" x=\"{}\" y=\"38\">receiver (GB/s received from the row's node)</text>\n",
                     left + matrix / 2);
  svg += fmt::format("<text class=\"yt\" transform=\"translate(14 {}) rotate(-90)\">sender</text>\n", top + matrix / 2);
  for (size_t j = 0; j < n; ++j)
    svg += fmt::format("<text class=\"cl\" x=\"{}\" y=\"{}\">{}</text>\n", left + cell * j + cell / 2, top - 8,
                       escape(hm.nodes[j]));
  for (size_t i = 0; i < n; ++i) {
    svg += fmt::format("<text class=\"ty\" x=\"{}\" y=\"{}\">{}</text>\n", left - 6, top + cell * i + cell / 2 + 4,
                       escape(hm.nodes[i]));
    for (size_t j = 0; j < n; ++j) {
      // A pointer rather than a copied optional: GCC 12 warns (maybe-uninitialized) on the copy at -O2.
      const double* v = i < hm.gbps.size() && j < hm.gbps[i].size() && hm.gbps[i][j] ? &*hm.gbps[i][j]
                                                                                     : static_cast<double*>(nullptr);
      const std::string fill = v ? heatColour(*v / top_gbps) : std::string("#ddd");
      const std::string what =
          v ? fmt::format("{} GB/s", charts::plainNumber(*v, 4)) +
                  (hm.expected_gbps ? fmt::format(" ({:.0f}% of the expected {} GB/s)", *v / *hm.expected_gbps * 100,
                                                  charts::plainNumber(*hm.expected_gbps, 3))
                                    : std::string())
            : std::string(i == j ? "the node itself" : "no pair measured");
      svg += fmt::format(
          "<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{} -&gt; {}: {}</title>"
          "</rect>\n",
          left + cell * j, top + cell * i, cell - 2, cell - 2, fill, escape(hm.nodes[i]), escape(hm.nodes[j]),
          escape(what));
      if (v && labelled)
        svg += fmt::format("<text class=\"cv\" x=\"{}\" y=\"{}\">{}</text>\n", left + cell * j + cell / 2 - 1,
                           top + cell * i + cell / 2 + 4, charts::plainNumber(*v, 3));
    }
  }
  // The colour scale: 20 steps from 0 (bottom) to the top GB/s, labelled at 0, 1/4 ... the top.
  constexpr int kSteps = 20;
  svg += fmt::format("<text class=\"lg\" x=\"{}\" y=\"{}\">GB/s{}</text>\n", scaleX, top - 8,
                     hm.expected_gbps ? " (top: expected)" : " (top: fastest)");
  for (int k = 0; k < kSteps; ++k) {
    const double f0 = static_cast<double>(k) / kSteps;
    svg +=
        fmt::format("<rect class=\"scale\" x=\"{}\" y=\"{:.1f}\" width=\"18\" height=\"{:.1f}\" fill=\"{}\"/>", scaleX,
                    top + scaleH * (1 - f0 - 1.0 / kSteps), scaleH / kSteps + 0.5, heatColour(f0 + 0.5 / kSteps));
  }
  for (int k = 0; k <= 4; ++k) {
    const double f = k / 4.0;
    svg += fmt::format("<text class=\"lg scale-label\" x=\"{}\" y=\"{:.1f}\">{} GB/s</text>\n", scaleX + 24,
                       top + scaleH * (1 - f) + 4, charts::plainNumber(top_gbps * f, 3));
  }
  return svg + "</svg>\n";
}

}  // namespace pf::reports::html

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Inline SVG from the chart model (reports/charts/): our own drawing, so a report opens offline with nothing
// to load. Axes, ranges and tick labels are the model's (charts::fitAxes); charts are as wide as the page (a
// viewBox drawn at width 100%), legends wrap below the plot so no entry is cut, regressions are red markers;
// every point has an SVG <title> with its values, which browsers show on hover; predicted series are dashed.
#pragma once

#include <string>

#include "charts/chart_model.hpp"

namespace pf::reports::html {

/// Where an x (or y) value lands in a plot area of `pixels`, for the axis's scale over [lo, hi].
double project(double value, double lo, double hi, charts::Scale scale, double pixels);

std::string svgChart(const charts::Chart& chart);
std::string svgHeatmap(const charts::Heatmap& heatmap);

/// The classes the charts use (axes, grid, bands, labels); a page includes it once in its stylesheet.
extern const char* const kChartCss;

/// A chart as a file of its own (Markdown reports): the chart's styles inside it, on a white background.
std::string standaloneSvg(const std::string& svg);

/// Text made safe for HTML and SVG (&, <, >, quotes).
std::string escape(const std::string& text);

}  // namespace pf::reports::html

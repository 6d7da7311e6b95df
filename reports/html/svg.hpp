// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Inline SVG from the chart model (reports/charts/): our own drawing, so a report opens offline with nothing
// to load. Axes carry titles and units, log2 size axes binary-suffix labels; every point has an SVG <title>
// with its values, which browsers show on hover; predicted series are dashed and say "predicted" in the legend.
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

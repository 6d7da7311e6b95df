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

/// Text made safe for HTML and SVG (&, <, >, quotes).
std::string escape(const std::string& text);

}  // namespace pf::reports::html

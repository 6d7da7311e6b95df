// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Values as the viewer's hover and heatmap texts read them, with more digits than a tick label: the chart
// model's axes (reports::charts: fitAxes, tickLabel) label the ticks; these format a single exact value in the
// unit a person reads (1500 us -> "1.5 ms", 0.0246 GB/s -> "24.6 MB/s"), never in e-notation.
#pragma once

#include <QString>

#include "charts/chart_model.hpp"

namespace pf::gui {

/// `v` in `unit`, scaled to the unit a person reads (1500 us -> "1.5 ms"), with `sig` significant digits.
QString formatValue(double v, const std::string& unit, bool binary = false, int sig = 4);

/// True when formatValue's text for this axis carries the unit, so a hover need not repeat it.
bool unitInTicks(const reports::charts::Axis& axis);

/// A number in fixed notation with at most `decimals` decimals, trailing zeros dropped ("-0" reads "0").
QString plainNumber(double v, int decimals);

}  // namespace pf::gui

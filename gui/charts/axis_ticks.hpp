// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Tick positions and labels of the viewer's axes. Qt's value axes print numbers through a printf format, which
// gives "1e+06" and cannot scale units; so every axis is a category axis whose labels come from here: sizes in
// B/KiB/MiB, times in ns/us/ms/s, bandwidths in MB/s/GB/s/TB/s, other numbers with k/M/G, never e-notation.
// Positions are in plotted units (log2(v) or log10(v) on log axes, v on linear ones).
#pragma once

#include <QString>
#include <vector>

#include "charts/chart_model.hpp"

namespace pf::gui {

struct Tick {
  double at = 0;  ///< plotted position
  QString label;
};

/// The ticks of `axis` over the plotted range [lo, hi]; `lo`/`hi` may be widened to the outer ticks of a linear
/// axis so both ends carry a label.
std::vector<Tick> axisTicks(const reports::charts::Axis& axis, double& lo, double& hi);

/// `v` in `unit`, scaled to the unit a person reads (1500 us -> "1.5 ms"), with `sig` significant digits.
QString formatValue(double v, const std::string& unit, bool binary = false, int sig = 4);

/// True when the tick labels carry the unit, so the axis title need not repeat it.
bool unitInTicks(const reports::charts::Axis& axis);

/// A number in fixed notation with at most `decimals` decimals, trailing zeros dropped ("-0" reads "0").
QString plainNumber(double v, int decimals);

}  // namespace pf::gui

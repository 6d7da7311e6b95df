// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The charts of `preflight history`'s document (history/history_report.hpp), in the chart model of
// chart_model.hpp, so the HTML report and the viewer draw them as they draw every other chart.
#pragma once

#include <vector>

#include "chart_model.hpp"

namespace pf::reports::charts {

/// Each node's median pair bandwidth, and one-node checks' all-reduce busbw, against the run number, for the
/// `history.bandwidth` result (empty for any other result, and for a figure no row has).
std::vector<Chart> historyCharts(const Result& bandwidth);

}  // namespace pf::reports::charts

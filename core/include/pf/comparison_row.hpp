// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One line of `preflight compare` (result kind "comparison"): one figure of a baseline run beside the same
// figure of a newer run, the signed change, and whether it moved the wrong way by more than the limit that
// applied to it. The terminal, HTML and Markdown reports, their charts and the viewer all read these.
#pragma once

#include <optional>
#include <string>

#include "pf/result.hpp"

namespace pf {

struct ComparisonRow {
  std::string new_label;  ///< which NEW document (its file name)
  std::string subject;    ///< the series: "float sum" (sweep), "node0-node1" (pair), "" (scale)
  double x = 0;           ///< size in bytes (sweep), world size (scale), 0 (pairs and statuses)
  std::string item;       ///< what a person reads for x: "1 MiB", "8 ranks", "node0-node1"
  std::string metric;     ///< the judged figure: busbw_gbps, time_us, bw_gbps, lat_us, throughput_sps, status
  bool higher_is_better = true;
  double base = 0, value = 0;  ///< the figure in BASE and in NEW (status rows: the severity order)
  double change_pct = 0;       ///< (value - base) / base x 100: signed as the figure moved
  double limit_pct = 0;        ///< how far the wrong way it may move before it is a regression
  std::string bound;           ///< sweeps: "latency" or "bandwidth", which decided the metric
  std::string note;            ///< why it was or was not flagged, when not obvious (e.g. "within 2 us")
  bool regressed = false;
  /// Sweep rows carry both runs' bus bandwidth whatever the judged metric, for the overlay chart.
  std::optional<double> base_busbw_gbps, new_busbw_gbps;
};

Json toJson(const ComparisonRow& r);
/// @throws UsageError naming the missing or mistyped field.
ComparisonRow comparisonRowFromJson(const Json& j);

}  // namespace pf

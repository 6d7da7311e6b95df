// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The chart model: the series a person wants to see, derived from a result document and nothing else. It holds
// no drawing code, so that the HTML/SVG reports and the Qt viewer draw the same numbers and a drawing layer can
// be replaced alone (Qt Charts is deprecated from Qt 6.10). Nothing is drawn that this model did not derive.
//
// Every value here is a value of the document or follows from one by a formula named where it is computed:
// busbw from per-iteration times uses nccl-tests' definition (busbw = bytes x factor / time, so at a fixed size
// busbw scales as 1 / time); the ideal scaling lines are E = 1 and throughput(N) = throughput(N0) x N / N0.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pf/result.hpp"

namespace pf::reports::charts {

enum class Scale { kLinear, kLog2, kLog10 };

struct Axis {
  std::string title;  ///< "message size", "bus bandwidth"
  std::string unit;   ///< "bytes", "GB/s", "us", "ranks", ""
  Scale scale = Scale::kLinear;
  bool binarySuffix = false;  ///< tick labels as 1 KiB, 2 MiB (sizes)
};

struct Point {
  double x = 0, y = 0;
  std::optional<double> low, high;  ///< an error bar or a band's edges, when the document has a spread
};

enum class Style {
  kLine,     ///< measured values joined
  kMarkers,  ///< measured values, not joined
  kBand,     ///< the area between low and high (a percentile range)
  kIdeal,    ///< a reference line (perfect scaling)
  kStacked,  ///< a bar segment stacked on the series before it at the same x
};

struct Series {
  std::string name;  ///< legend entry: "busbw out-of-place (float sum)"
  Style style = Style::kLine;
  bool predicted = false;  ///< from the model, not measured: drawn differently, always labelled
  std::vector<Point> points;
};

struct Chart {
  std::string id;  ///< stable, for anchors and tests: "sweep.all_reduce.busbw"
  std::string title;
  Axis x, y;
  std::vector<Series> series;
};

/// A node x node matrix (the pair test): cells hold % of the expected bandwidth, null where no pair ran.
struct Heatmap {
  std::string id, title, unit;
  std::vector<std::string> nodes;
  std::vector<std::vector<std::optional<double>>> cells;  ///< [row][column], symmetric
  std::vector<std::string> failing;                       ///< "node2" or "node0-node3", with the reason
};

struct ChartSet {
  std::vector<Chart> charts;
  std::vector<Heatmap> heatmaps;
};

/// Every chart the document supports, in the order a report shows them.
ChartSet chartsFor(const RunReport& report);

/// Busbw and algbw against size, and time against size, per (type, op), for a result of kind sweep.
std::vector<Chart> sweepCharts(const Result& sweep);
/// E(N), throughput, step time (measured and predicted) and where step time goes, for a result of kind scale.
std::vector<Chart> scaleCharts(const Result& scale);
/// BASE and every NEW overlaid, and the change against size, for comparison results of one BASE result.
std::vector<Chart> compareCharts(const std::vector<const Result*>& group);
/// The pair matrix of a result of kind pairs.
Heatmap pairHeatmap(const Result& pairs);

/// Tick positions of a log2 axis covering [lo, hi]: powers of two, at most `maxTicks` (every k-th power).
std::vector<double> log2Ticks(double lo, double hi, int maxTicks = 12);
/// "8 B", "1 KiB", "32 MiB", "4 GiB": sizes as nccl-tests' -b/-e take them (1024-based).
std::string binarySize(double bytes);

}  // namespace pf::reports::charts

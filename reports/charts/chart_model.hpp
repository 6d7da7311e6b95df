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

/// One labelled tick: where it sits (a data value) and what it reads ("1 KiB", "30 ms", "1.5M", "0").
struct Tick {
  double value = 0;
  std::string label;
};

struct Axis {
  std::string title;  ///< "message size", "bus bandwidth"
  std::string unit;   ///< "bytes", "GB/s", "us", "ranks", "samples/s", "%", ""
  Scale scale = Scale::kLinear;
  bool binarySuffix = false;  ///< tick labels as 1 KiB, 2 MiB (sizes)
  // Set by fitAxes (every chart the builders below return is fitted), so that every drawing shows the same axis:
  double lo = 0, hi = 0;      ///< the range drawn: every point, error bar and tick lies inside it
  std::vector<Tick> ticks{};  ///< 4 to 8 positions with their labels (fewer only where the data leave no room)
  bool fitted() const { return hi > lo; }
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
  bool regression = false;  ///< the points a gate flagged (compare): drawn as alarm markers (red), not joined
};

struct Chart {
  std::string id;  ///< stable, for anchors and tests: "sweep.all_reduce.busbw"
  std::string title;
  Axis x, y;
  std::vector<Series> series;
  bool secondary = false;  ///< the detail behind a main chart (algbw, in-place): folded away / one click away
};

/// A node x node matrix (the pair test), null where no pair ran.
struct Heatmap {
  std::string id, title, unit;
  std::vector<std::string> nodes;
  std::vector<std::vector<std::optional<double>>> cells;  ///< [row][column], symmetric: the pair's % of expected
  std::vector<std::string> failing;                       ///< "node2" or "node0-node3", with the reason
  /// [sender][receiver]: the bandwidth measured in that direction, GB/s (a->b in row a, b->a in row b).
  std::vector<std::vector<std::optional<double>>> gbps{};
  std::optional<double> expected_gbps{};  ///< what the analysis expected of a pair (the colour scale's green end)
  double scale_max_gbps = 0;              ///< the colour scale's top: the expected bandwidth, or the largest measured
  int rails = 0;  ///< rails per pair when the check tested several (--rails): each cell holds the slowest of them
};

struct ChartSet {
  std::vector<Chart> charts;
  std::vector<Heatmap> heatmaps;
};

/// Every chart the document supports, in the order a report shows them.
ChartSet chartsFor(const RunReport& report);

/// Per (type, op): busbw and time against size, out-of-place (the main charts), then the secondary charts (busbw
/// in-place, algbw, iteration p50; time in-place), for a result of kind sweep.
std::vector<Chart> sweepCharts(const Result& sweep);
/// The same with several sweep results of one collective overlaid: one line per run, named "KEY: busbw ...".
std::vector<Chart> sweepCharts(const std::vector<const Result*>& runs);
/// E(N), throughput, step time (measured and predicted) and where step time goes, for a result of kind scale.
std::vector<Chart> scaleCharts(const Result& scale);
/// A capacity plan's E(N) with its band and target, and its step breakdown, for a result of kind plan.
std::vector<Chart> planCharts(const Result& plan);
/// BASE and every NEW overlaid, and the change against size, for comparison results of one BASE result.
std::vector<Chart> compareCharts(const std::vector<const Result*>& group);
/// The pair matrix of a result of kind pairs.
Heatmap pairHeatmap(const Result& pairs);

/// Sets each axis's scale, range and ticks from the chart's points: a y axis (and a linear x axis) whose
/// positive values span more than 20x becomes log10 (never for stacked bars or values at or below zero);
/// linear bandwidth-like axes start at zero; ticks are 4-8 nice values labelled by tickLabel.
void fitAxes(Chart& chart);
/// A value as a tick reads it, SI-scaled by the axis's unit: sizes 1024-based (8 B, 1 KiB), times in us/ms/s
/// (500 us, 1.5 ms), bandwidths in kB/s..TB/s (500 MB/s), other units k/M/G for large numbers (1.5M); never
/// e-notation, never "-0". `magnitude`
/// (the largest |tick| of a linear axis) picks one time unit for the whole axis; 0 picks it per value.
std::string tickLabel(double value, const Axis& axis, double magnitude = 0);
/// The axis title a reader needs beside those labels: "step time" (the ticks say ms), "throughput (samples/s)".
std::string axisTitle(const Axis& axis);
/// A number without e-notation: up to `significant` digits, trailing zeros dropped, "0" for zero (never "-0").
std::string plainNumber(double value, int significant = 3);
/// The legend entry of a series: its name, with " (predicted)" added only where the name does not say it.
std::string legendName(const Series& series);

/// The colour of the i-th series, the same in the HTML report and the viewer (ten, then again); none is red.
const char* seriesColor(size_t i);
/// Red, for regressions only: the points a gate flagged (Series::regression).
inline constexpr const char* kAlarmColor = "#d62728";

/// Tick positions of a log2 axis covering [lo, hi]: powers of two, at most `maxTicks` (every k-th power).
std::vector<double> log2Ticks(double lo, double hi, int maxTicks = 12);
/// "8 B", "1 KiB", "32 MiB", "4 GiB": sizes as nccl-tests' -b/-e take them (1024-based).
std::string binarySize(double bytes);

}  // namespace pf::reports::charts

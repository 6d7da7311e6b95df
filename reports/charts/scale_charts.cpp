// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A scaling run as charts, all against world size N on a log2 axis:
//   efficiency    E(N) with its min-max over repetitions as error bars, the ideal line E = 1, and the model's
//                 predicted E(N) out to the largest --predict size, marked predicted;
//   throughput    samples/s with its spread and the linear ideal throughput(N0) x N / N0 from the smallest N;
//   step time     measured p50, and predicted (for the measured sizes, the model's validation, and --predict);
//   breakdown     compute, exposed communication and the rest of the step, stacked per measured N.
#include <algorithm>

#include "chart_model.hpp"
#include "pf/scale_row.hpp"

namespace pf::reports::charts {
namespace {

Axis ranksAxis() { return {"world size", "ranks", Scale::kLog2, false}; }

Point spreadPoint(double x, const SpreadStat& s) { return {x, s.median, s.min, s.max}; }

}  // namespace

std::vector<Chart> scaleCharts(const Result& scale) {
  std::vector<Chart> out;
  if (scale.kind != Kind::kScale) return out;
  const ScaleSummary sum = scaleSummaryFromResult(scale);
  if (sum.rows.empty()) return out;
  std::vector<ScaleRow> rows = sum.rows;
  std::sort(rows.begin(), rows.end(), [](const ScaleRow& a, const ScaleRow& b) { return a.ranks < b.ranks; });
  double lastN = rows.back().ranks;
  for (const ScalePrediction& p : sum.predictions) lastN = std::max(lastN, static_cast<double>(p.ranks));
  const double firstN = rows.front().ranks;

  Chart eff{"scale.efficiency", "scaling efficiency E(N)", ranksAxis(), {"efficiency", "", Scale::kLinear, false}, {}};
  Series measured{"E(N) measured", Style::kMarkers, false, {}};
  for (const ScaleRow& r : rows) measured.points.push_back(spreadPoint(r.ranks, r.efficiency));
  eff.series.push_back(std::move(measured));
  eff.series.push_back({"ideal", Style::kIdeal, false, {{firstN, 1, {}, {}}, {lastN, 1, {}, {}}}});

  Chart thr{"scale.throughput", "throughput", ranksAxis(), {"throughput", "samples/s", Scale::kLinear, false}, {}};
  Series thrMeasured{"throughput measured", Style::kMarkers, false, {}};
  for (const ScaleRow& r : rows) thrMeasured.points.push_back(spreadPoint(r.ranks, r.throughput_sps));
  thr.series.push_back(std::move(thrMeasured));
  const double perRank = rows.front().throughput_sps.median / rows.front().ranks;
  thr.series.push_back(
      {"linear scaling", Style::kIdeal, false, {{firstN, perRank * firstN, {}, {}}, {lastN, perRank * lastN, {}, {}}}});

  Chart step{"scale.step_time", "step time", ranksAxis(), {"step time (p50)", "us", Scale::kLinear, false}, {}};
  Series stepMeasured{"step time measured", Style::kMarkers, false, {}};
  for (const ScaleRow& r : rows) stepMeasured.points.push_back({static_cast<double>(r.ranks), r.step_us_p50, {}, {}});
  step.series.push_back(std::move(stepMeasured));

  // The model's own numbers: its prediction of the measured sizes (how far off it was) and of larger ones.
  Series validation{"step time predicted (measured sizes)", Style::kMarkers, true, {}};
  if (scale.metrics.contains("validation") && scale.metrics.at("validation").is_array())
    for (const Json& v : scale.metrics.at("validation"))
      if (v.contains("ranks") && v.contains("predicted_step_us") && v.at("predicted_step_us").is_number())
        validation.points.push_back({v.at("ranks").get<double>(), v.at("predicted_step_us").get<double>(), {}, {}});
  if (!validation.points.empty()) step.series.push_back(std::move(validation));
  if (!sum.predictions.empty()) {
    Series effPred{"E(N) predicted", Style::kLine, true, {}};
    Series thrPred{"throughput predicted", Style::kLine, true, {}};
    Series stepPred{"step time predicted", Style::kLine, true, {}};
    std::vector<ScalePrediction> byRanks = sum.predictions;  // a line joins them left to right
    std::stable_sort(byRanks.begin(), byRanks.end(), [](const auto& a, const auto& b) { return a.ranks < b.ranks; });
    // The band as error bars: the fits' residuals and the measured spread (scaling/sweep_fit.cpp); documents from
    // before the two-level model have none (low = high).
    auto bar = [](double v, double low, double high) {
      return low == high ? Point{0, v, {}, {}} : Point{0, v, low, high};
    };
    for (const ScalePrediction& p : byRanks) {
      const double x = p.ranks;
      Point e = bar(p.efficiency, p.efficiency_low, p.efficiency_high),
            t = bar(p.step_us, p.step_us_low, p.step_us_high);
      e.x = t.x = x;
      effPred.points.push_back(e);
      thrPred.points.push_back({x, p.throughput_sps, {}, {}});
      stepPred.points.push_back(t);
    }
    eff.series.push_back(std::move(effPred));
    thr.series.push_back(std::move(thrPred));
    step.series.push_back(std::move(stepPred));
  }

  Chart parts{
      "scale.breakdown", "where step time goes", ranksAxis(), {"time per step (p50)", "us", Scale::kLinear, false}, {}};
  Series compute{"compute", Style::kStacked, false, {}};
  Series exposed{"exposed communication", Style::kStacked, false, {}};
  Series rest{"rest", Style::kStacked, false, {}};
  for (const ScaleRow& r : rows) {
    const double x = r.ranks;
    compute.points.push_back({x, r.compute_us, {}, {}});
    exposed.points.push_back({x, r.exposed_comm_us, {}, {}});
    rest.points.push_back({x, r.rest_us, {}, {}});
  }
  parts.series = {std::move(compute), std::move(exposed), std::move(rest)};

  out = {std::move(eff), std::move(thr), std::move(step), std::move(parts)};
  for (Chart& c : out) fitAxes(c);
  return out;
}

}  // namespace pf::reports::charts

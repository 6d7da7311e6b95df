// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A capacity plan (`preflight plan`) as charts against the node count on a log2 axis, with ids under "scale."
// so the viewer's Scaling tab and the reports draw them beside a scaling run's:
//   scale.plan.efficiency  predicted E(N) with its band as error bars, the target line, and with --calibrate the
//                          measured E at each measured allocation;
//   scale.plan.breakdown   compute, exposed and hidden communication per step, stacked per node count.
// Every series is marked predicted (a bound from line rates is still a prediction); measured points are not.
#include <algorithm>

#include "chart_model.hpp"

namespace pf::reports::charts {

std::vector<Chart> planCharts(const Result& plan) {
  std::vector<Chart> out;
  if (plan.kind != Kind::kPlan || plan.rows.empty()) return out;
  const Axis nodes{"nodes", "nodes", Scale::kLog2, false};
  Chart eff{"scale.plan.efficiency",
            "planned efficiency E(N) = compute / step",
            nodes,
            {"efficiency", "", Scale::kLinear, false},
            {}};
  Series e{"E(N) predicted", Style::kLine, true, {}};
  Chart parts{
      "scale.plan.breakdown", "where the planned step goes", nodes, {"time per step", "ms", Scale::kLinear, false}, {}};
  Series compute{"compute", Style::kStacked, true, {}}, exposed{"exposed communication", Style::kStacked, true, {}},
      hidden{"hidden communication (overlapped)", Style::kStacked, true, {}};
  double first = 0, last = 0;
  for (const Json& r : plan.rows) {
    const double x = r.value("nodes", 1);
    first = first == 0 ? x : std::min(first, x);
    last = std::max(last, x);
    const double v = r.value("efficiency", 0.0), lo = r.value("efficiency_low", v), hi = r.value("efficiency_high", v);
    e.points.push_back(lo == hi ? Point{x, v, {}, {}} : Point{x, v, lo, hi});
    compute.points.push_back({x, r.value("compute_ms", 0.0), {}, {}});
    exposed.points.push_back({x, r.value("exposed_ms", 0.0), {}, {}});
    hidden.points.push_back({x, r.value("hidden_ms", 0.0), {}, {}});
  }
  std::sort(e.points.begin(), e.points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
  eff.series.push_back(std::move(e));
  const double target = plan.params.value("target_efficiency", 0.0);
  if (target > 0)
    eff.series.push_back({"target", Style::kIdeal, false, {{first, target, {}, {}}, {last, target, {}, {}}}});
  const auto m = plan.metrics.find("measured");
  if (m != plan.metrics.end() && m->is_array() && !m->empty()) {
    Series measured{"E measured (preflight scale)", Style::kMarkers, false, {}};
    for (const Json& x : *m)
      measured.points.push_back({x.value("nodes", 1.0), x.value("measured_efficiency", 0.0), {}, {}});
    eff.series.push_back(std::move(measured));
  }
  parts.series = {std::move(compute), std::move(exposed), std::move(hidden)};
  out = {std::move(eff), std::move(parts)};
  for (Chart& c : out) fitAxes(c);
  return out;
}

}  // namespace pf::reports::charts

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The capacity plan of `preflight scale --from sweep.json --predict N...`: measured and predicted world sizes
// in one table, how far off the model was on the sizes it could be checked against, what bounds each
// gradient bucket's all-reduce at the largest size asked about, and the bucket cap the model would pick.
// Every cell is a figure of the document; the sentences only compare them.
#include <fmt/format.h>

#include <algorithm>

#include "charts/chart_model.hpp"
#include "pf/scale_row.hpp"
#include "pf/units.hpp"
#include "table_model.hpp"

namespace pf::reports::tables {
namespace {

std::string us(double v) { return fmt::format("{:.1f}", v); }
std::string eff(double v) { return fmt::format("{:.3f}", v); }

/// "v (low-high)" when the document has a band; older documents carry none (low = high = v).
std::string banded(std::string (*f)(double), double v, double low, double high) {
  return low == high ? f(v) : fmt::format("{} ({}-{})", f(v), f(low), f(high));
}

}  // namespace

Section capacityPlan(const Result& scale) {
  Section sec;
  if (scale.kind != Kind::kScale) return sec;
  const ScaleSummary s = scaleSummaryFromResult(scale);
  if (s.predictions.empty() && s.validation.empty() && s.buckets.empty()) return sec;
  sec.title = "Capacity plan";

  Table sizes{"capacity.sizes", "Step time, throughput and efficiency by world size", {}, {}, {}};
  sizes.header = {"ranks", "", "step time (us)", "throughput (samples/s)", "E(N)", "exposed comm (us)"};
  for (const ScaleRow& r : s.rows)
    sizes.rows.push_back(
        {std::to_string(r.ranks), "measured", us(r.step_us_p50), humanNumber(r.throughput_sps.median),
         fmt::format("{:.3f} ({:.3f}-{:.3f})", r.efficiency.median, r.efficiency.min, r.efficiency.max),
         us(r.exposed_comm_us)});
  for (const ScalePrediction& p : s.predictions)
    sizes.rows.push_back(
        {p.allocation.empty() ? std::to_string(p.ranks) : fmt::format("{} ({})", p.ranks, p.allocation),
         p.lower_bound ? "predicted, lower bound" : "predicted", banded(us, p.step_us, p.step_us_low, p.step_us_high),
         humanNumber(p.throughput_sps), banded(eff, p.efficiency, p.efficiency_low, p.efficiency_high),
         us(p.exposed_comm_us)});
  sizes.notes.push_back(
      "E(N) measured is the median over repetitions (min-max in brackets); predicted rows (nodes x ranks per node) "
      "come from the alpha-beta model fitted to the all-reduce sweeps, one level within a node and one across "
      "nodes, starting from the smallest measured size's compute time; the band in brackets carries the fits' "
      "largest residuals and the measured spread over repetitions.");
  sec.tables.push_back(std::move(sizes));

  if (!s.predictions.empty()) {
    const ScalePrediction& far = *std::max_element(s.predictions.begin(), s.predictions.end(),
                                                   [](const auto& a, const auto& b) { return a.ranks < b.ranks; });
    sec.headline.push_back(
        fmt::format("At {} ranks the model predicts a step of {} ms, {} samples/s and a scaling efficiency of {:.2f}.",
                    far.ranks, humanNumber(far.step_us / 1e3), humanNumber(far.throughput_sps), far.efficiency));
  }
  if (std::any_of(s.predictions.begin(), s.predictions.end(), [](const auto& p) { return !p.in_switch.empty(); }))
    sec.headline.push_back(
        "Some predictions use NCCL's in-switch reductions (NVLS, CollNet), which the probe document shows on every "
        "node: their costs come from the bytes each GPU and NIC moves at the swept bandwidths, not from a sweep "
        "that ran them.");
  if (std::any_of(s.predictions.begin(), s.predictions.end(), [](const auto& p) { return p.lower_bound; }))
    sec.headline.push_back(
        "No inter-node sweep was given: across nodes the model takes the network at the NICs' line rate (from the "
        "probe document) with the intra-node latency, so those step times are lower bounds; sweep across two nodes "
        "to predict them.");
  if (s.prediction_max_abs_error)
    sec.headline.push_back(fmt::format(
        "On the sizes that were measured, the model's step time was off by at most {:.1f}%{}.",
        100 * *s.prediction_max_abs_error,
        *s.prediction_max_abs_error > 0.15 ? ": treat the predictions as rough and re-run the sweep on these ranks"
                                           : ""));

  if (!s.validation.empty()) {
    Table v{"capacity.validation", "The model checked against measured sizes", {}, {}, {}};
    v.header = {"ranks", "predicted from", "predicted step (us)", "measured step (us)", "error"};
    const bool band =
        std::any_of(s.validation.begin(), s.validation.end(), [](const auto& x) { return x.inside_band; });
    if (band) v.header.push_back("in band");
    for (const ScaleValidation& x : s.validation) {
      v.rows.push_back({x.allocation.empty() ? std::to_string(x.ranks) : fmt::format("{} ({})", x.ranks, x.allocation),
                        counted(x.from_ranks, "rank"),
                        banded(us, x.predicted_step_us, x.predicted_step_us_low, x.predicted_step_us_high),
                        us(x.measured_step_us), fmt::format("{:+.1f}%", 100 * x.relative_error)});
      if (band) v.rows.back().push_back(x.inside_band ? (*x.inside_band ? "yes" : "no") : "-");
    }
    sec.tables.push_back(std::move(v));
  }

  if (!s.buckets.empty()) {
    Table b{"capacity.buckets", "Gradient buckets at " + counted(s.plan_ranks, "rank"), {}, {}, {}};
    b.header = {"bucket", "size", "latency part (us)", "bandwidth part (us)", "bound by"};
    int latencyBound = 0;
    for (std::size_t i = 0; i < s.buckets.size(); ++i) {
      const BucketBound& x = s.buckets[i];
      latencyBound += x.bound == "latency";
      b.rows.push_back({std::to_string(i), charts::binarySize(x.bytes), us(x.latency_us), us(x.bandwidth_us),
                        x.level.empty() ? x.bound : x.level + " " + x.bound});
    }
    b.notes.push_back(
        "Ring all-reduce terms: latency 2(n-1) alpha, bandwidth 2(n-1)/n S beta (alpha and beta "
        "fitted to the sweep of the level that bounds the ring's steps: the network when the allocation spans nodes).");
    sec.headline.push_back(fmt::format(
        "At {} ranks {} of {} gradient buckets are latency-bound: {}.", s.plan_ranks, latencyBound, s.buckets.size(),
        latencyBound * 2 > static_cast<int>(s.buckets.size())
            ? "the fabric's per-message latency, not its bandwidth, limits the all-reduces"
            : "the fabric's bandwidth limits the all-reduces"));
    sec.tables.push_back(std::move(b));
  }

  if (!s.caps.empty()) {
    Table c{"capacity.caps", fmt::format("Bucket cap at {} ranks (predicted)", s.plan_ranks), {}, {}, {}};
    c.header = {"bucket cap (MiB)", "buckets", "predicted step (us)"};
    for (const BucketCap& x : s.caps)
      c.rows.push_back({fmt::format("{:g}", x.cap_mb), std::to_string(x.buckets), us(x.step_us)});
    const double own = scale.params.value("bucket_cap_mb", 0.0);
    if (s.best_cap_mb) {
      const bool same = std::all_of(s.caps.begin(), s.caps.end(),
                                    [&](const BucketCap& x) { return x.step_us == s.caps.front().step_us; });
      sec.headline.push_back(
          same ? fmt::format("Every bucket cap tried predicts the same step at {} ranks, so --bucket-cap-mb does "
                             "not matter for this model.",
                             s.plan_ranks)
               : fmt::format("The model's best bucket cap at {} ranks is {:g} MiB (this run used {:g} MiB).",
                             s.plan_ranks, *s.best_cap_mb, own));
    }
    sec.tables.push_back(std::move(c));
  }
  return sec;
}

std::vector<Section> sectionsFor(const RunReport& report) {
  std::vector<Section> out;
  for (const Result& r : report.results)
    if (Section s = r.kind == Kind::kPlan ? planSection(r) : capacityPlan(r); !s.tables.empty())
      out.push_back(std::move(s));
  return out;
}

}  // namespace pf::reports::tables

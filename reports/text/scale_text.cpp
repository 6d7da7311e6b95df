// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight scale` in the terminal: one line per world size (throughput, step time, where it went, E(N) with
// its spread, whether the parameters agreed), the predicted sizes, then the verdict line.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "pf/scale_row.hpp"
#include "text_view.hpp"

namespace pf::reports {
namespace {

class ScaleText final : public TextView {
 public:
  std::string end(const RunReport& report) override {
    std::string s;
    for (const Result& r : report.results) {
      if (r.kind != Kind::kScale) {
        s += statusLines({r});
        continue;
      }
      const ScaleSummary sum = scaleSummaryFromResult(r);
      s += fmt::format("{:>5} {:>12} {:>12} {:>11} {:>11} {:>11} {:>11} {:>10} {:>10} {:>6}\n", "ranks", "samples/s",
                       "step_p50_us", "step_p90_us", "compute_us", "comm_us", "exposed_us", "eff", "eff_min", "equal");
      for (const ScaleRow& row : sum.rows)
        s +=
            fmt::format("{:>5} {:>12.1f} {:>12.1f} {:>11.1f} {:>11.1f} {:>11.1f} {:>11.1f} {:>10.3f} {:>10.3f} {:>6}\n",
                        row.ranks, row.throughput_sps.median, row.step_us_p50, row.step_us_p90, row.compute_us,
                        row.comm_us, row.exposed_comm_us, row.efficiency.median, row.efficiency.min,
                        row.ranks_identical && row.equal_to_single_rank ? "yes" : "NO");
      for (const ScalePrediction& p : sum.predictions) {
        s += fmt::format("predicted {:>6} ranks{}: step {:.1f} us", p.ranks,
                         p.allocation.empty() ? "" : " (" + p.allocation + ")", p.step_us);
        if (p.step_us_low != p.step_us_high) s += fmt::format(" ({:.1f}-{:.1f})", p.step_us_low, p.step_us_high);
        s += fmt::format(", exposed {:.1f} us, efficiency {:.3f}", p.exposed_comm_us, p.efficiency);
        if (p.efficiency_low != p.efficiency_high)
          s += fmt::format(" ({:.3f}-{:.3f})", p.efficiency_low, p.efficiency_high);
        if (!p.bottleneck.empty()) s += fmt::format(", bound by the {} level", p.bottleneck);
        if (!p.in_switch.empty()) s += fmt::format("; {} modelled, not measured", fmt::join(p.in_switch, "/"));
        s += p.lower_bound ? "; a lower bound (network at the NICs' line rate)\n" : "\n";
      }
      s += fmt::format("{}: {}\n", toString(r.status), r.message);
    }
    return s;
  }
};

PF_REGISTER_TEXT_VIEW(ScaleText, "scale");

}  // namespace
}  // namespace pf::reports

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight sweep` in the terminal: the nccl-tests table, a row as each size is measured, then the footer and
// any notes (sizes reduced for memory, type/op pairs the backend lacks) as '#' lines.
#include "nccl_table.hpp"
#include "text_view.hpp"

namespace pf::reports {
namespace {

class SweepText final : public TextView {
 public:
  std::string rows(const Result& running, std::size_t first) override {
    if (running.kind != Kind::kSweep) return {};
    std::string s;
    if (!headerDone_) {
      s += ncclTableHeader(sweepParamsFromJson(running.params), context().extra.value("devices", Json::array()),
                           context().version, options().iterColumns);
      headerDone_ = true;
    }
    // Rows come in (out-of-place, in-place) pairs for one size, as the driver measures them.
    for (std::size_t i = first - first % 2; i + 1 < running.rows.size(); i += 2)
      s +=
          ncclTableRow(sweepRowFromJson(running.rows[i]), sweepRowFromJson(running.rows[i + 1]), options().iterColumns);
    return s;
  }

  std::string result(const Result& r) override {
    if (r.kind != Kind::kSweep) return statusLines({r});
    const SweepMetrics m = sweepMetricsFromJson(r.metrics);
    std::string s = ncclTableFooter(sweepParamsFromJson(r.params).collective, m.out_of_bounds, m.avg_busbw_gbps);
    for (const Evidence& e : r.evidence) s += "# " + formatEvidence(e) + "\n";
    headerDone_ = false;
    return s;
  }

  std::string end(const RunReport&) override { return {}; }

 private:
  bool headerDone_ = false;
};

PF_REGISTER_TEXT_VIEW(SweepText, "sweep");

}  // namespace

std::string sweepTable(const Result& sweep, const Context& context, const ReportOptions& options) {
  SweepText view;
  view.setup(context, options);
  return view.rows(sweep, 0) + view.result(sweep);
}
}  // namespace pf::reports

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight sweep` in the terminal: the nccl-tests table, a row as each size is measured, then the footer and
// any notes (sizes reduced for memory, type/op pairs the backend lacks) as '#' lines.
#include <fmt/format.h>

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
      std::string header =
          ncclTableHeader(sweepParamsFromJson(running.params), context().extra.value("devices", Json::array()),
                          context().version, options().iterColumns, context().tool);
      if (context().tool != "preflight") {  // an imported run says where it came from, below its first line
        const Json& imp = context().extra.value("import", Json::object());
        header.insert(header.find('\n') + 1, fmt::format("# imported from {}\n", imp.value("file", std::string("?"))));
      }
      s += header;
      headerDone_ = true;
    }
    // Rows come in (out-of-place, in-place) pairs for one size, as the driver measures them; an imported run
    // may lack one half of a pair, which then prints as N/A.
    for (std::size_t i = first; i < running.rows.size();) {
      SweepRow a = sweepRowFromJson(running.rows[i]);
      // A sweep of several passes (-N) prints each pass as its own block, as nccl-tests does.
      if (a.cycle && *a.cycle != cycle_) {
        if (cycle_ != 0) s += "#\n";
        cycle_ = *a.cycle;
        s += fmt::format("# cycle {} of {}\n", cycle_, sweepParamsFromJson(running.params).cycles);
      }
      if (a.placement == "out" && i + 1 < running.rows.size()) {
        SweepRow b = sweepRowFromJson(running.rows[i + 1]);
        if (b.placement == "in" && b.size_bytes == a.size_bytes && b.dtype == a.dtype && b.op == a.op &&
            b.root == a.root) {
          s += ncclTableRow(&a, &b, options().iterColumns);
          i += 2;
          continue;
        }
      }
      s += a.placement == "in" ? ncclTableRow(nullptr, &a, options().iterColumns)
                               : ncclTableRow(&a, nullptr, options().iterColumns);
      ++i;
    }
    return s;
  }

  std::string result(const Result& r) override {
    if (r.kind != Kind::kSweep) return statusLines({r});
    const SweepMetrics m = sweepMetricsFromJson(r.metrics);
    std::string s = ncclTableFooter(sweepParamsFromJson(r.params).collective, m.out_of_bounds, m.avg_busbw_gbps);
    for (const Evidence& e : r.evidence) s += "# " + formatEvidence(e) + "\n";
    headerDone_ = false;
    cycle_ = 0;
    return s;
  }

  std::string end(const RunReport&) override { return {}; }

 private:
  bool headerDone_ = false;
  int cycle_ = 0;  ///< the pass whose rows were printed last (0: none yet, or a one-pass sweep)
};

PF_REGISTER_TEXT_VIEW(SweepText, "sweep");

}  // namespace

std::string sweepTable(const Result& sweep, const Context& context, const ReportOptions& options) {
  SweepText view;
  view.setup(context, options);
  return view.rows(sweep, 0) + view.result(sweep);
}
}  // namespace pf::reports

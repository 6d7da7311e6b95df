// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// The terminal format: sweeps as the nccl-tests table, every other result as one status line with its remedy.
#include <fmt/format.h>

#include "nccl_table.hpp"
#include "pf/sweep_row.hpp"
#include "reporter.hpp"

namespace pf::reports {
namespace {

class TableReporter final : public Reporter {
 public:
  std::string format() const override { return "table"; }
  std::string render(const RunReport& report) const override {
    std::string s;
    const Json devices = report.context.extra.value("devices", Json::array());
    for (const Result& r : report.results) {
      if (r.kind == "sweep") {
        s += ncclTableHeader(r.params, devices, report.context.version, false);
        // Rows come in (out, in) pairs for the same size, as the driver writes them.
        for (size_t i = 0; i + 1 < r.rows.size(); i += 2)
          s += ncclTableRow(sweepRowFromJson(r.rows[i]), sweepRowFromJson(r.rows[i + 1]), false);
        s += ncclTableFooter(r.params.value("collective", std::string("?")),
                             r.metrics.value("out_of_bounds", int64_t{0}), r.metrics.value("avg_busbw_gbps", 0.0));
        continue;
      }
      s += fmt::format("{:<7} {:<28} {}{}\n", toString(r.status), r.key, r.host.empty() ? "" : r.host + ": ",
                       r.message);
      if (!r.remedy.empty() && (r.status == Status::kWarn || r.status == Status::kFail || r.status == Status::kError))
        s += fmt::format("        fix: {}\n", r.remedy);
    }
    return s;
  }
};

PF_REGISTER_REPORTER(TableReporter, "table");

}  // namespace
}  // namespace pf::reports

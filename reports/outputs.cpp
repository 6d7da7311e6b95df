// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "outputs.hpp"

#include "pf/report_io.hpp"

namespace pf::reports {

Outputs::Outputs(const std::vector<OutputSpec>& specs, const ReportOptions& options) {
  for (const OutputSpec& s : specs) {
    auto reporter = makeReporter(s.format, options);
    checkWritable(s.path);
    sinks_.emplace_back(std::move(reporter), Output(s.path));
  }
}

void Outputs::begin(const Context& context) {
  for (auto& [r, out] : sinks_) r->begin(context, out);
}

void Outputs::rows(const Result& running, std::size_t first) {
  for (auto& [r, out] : sinks_) r->rows(running, first, out);
}

void Outputs::result(const Result& finished) {
  for (auto& [r, out] : sinks_) r->result(finished, out);
}

void Outputs::end(const RunReport& report) {
  for (auto& [r, out] : sinks_) {
    r->end(report, out);
    out.close();
  }
}

void Outputs::replay(const RunReport& report) {
  begin(report.context);
  for (const Result& r : report.results) {
    if (!r.rows.empty()) rows(r, 0);
    result(r);
  }
  end(report);
}

}  // namespace pf::reports

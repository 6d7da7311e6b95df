// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "reporter.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

#include "pf/error.hpp"
#include "pf/report_io.hpp"

namespace pf::reports {

Output::Output(std::string path) : path_(std::move(path)) {}

void Output::write(const std::string& text) {
  if (!toStdout()) {
    buffer_ += text;
    return;
  }
  // Live output is read as it comes (a sweep's rows, a tail -f): flush every write.
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

void Output::snapshot(const std::string& whole) const {
  if (!toStdout()) writeFileAtomic(path_, whole);
}

void Output::close() {
  if (toStdout())
    std::fflush(stdout);
  else if (toFile())
    writeFileAtomic(path_, buffer_);
}

std::unique_ptr<Reporter> makeReporter(const std::string& format, const ReportOptions& options) {
  auto r = Registry<Reporter>::instance().create(format);
  if (!r)
    throw UsageError(
        fmt::format("unknown output format '{}': use one of {}", format, fmt::join(reporterFormats(), ", ")));
  r->options_ = options;
  return r;
}

std::vector<std::string> reporterFormats() { return Registry<Reporter>::instance().keys(); }

std::string renderDocument(const std::string& format, const RunReport& report, const ReportOptions& options) {
  auto reporter = makeReporter(format, options);
  Output out("");
  reporter->begin(report.context, out);
  for (const Result& r : report.results) {
    if (!r.rows.empty()) reporter->rows(r, 0, out);
    reporter->result(r, out);
  }
  reporter->end(report, out);
  return out.text();
}

}  // namespace pf::reports

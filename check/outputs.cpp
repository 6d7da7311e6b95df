// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "outputs.hpp"

#include <cstdio>

#include "pf/report_io.hpp"
#include "reporter.hpp"

namespace pf::check {

void validateOutputs(const OutputOptions& o) {
  if (o.format != "summary") reports::makeReporter(o.format);  // throws UsageError listing the formats
  if (o.outputPath != "-") checkWritable(o.outputPath);
  checkWritable(o.jsonPath);
  checkWritable(o.junitPath);
}

void emitOutputs(const RunReport& report, const OutputOptions& o, const std::string& summary) {
  if (!o.jsonPath.empty()) writeReport(report, o.jsonPath);
  if (!o.junitPath.empty()) writeFileAtomic(o.junitPath, reports::makeReporter("junit")->render(report));
  const std::string text = o.format == "summary" ? summary : reports::makeReporter(o.format)->render(report);
  if (o.outputPath == "-") {
    // The summary goes to stdout unless the JSON document does.
    if (o.jsonPath != "-" || o.format != "summary") {
      std::fputs(text.c_str(), stdout);
      std::fflush(stdout);
    }
  } else {
    // Atomic: node_exporter may read the textfile at any moment and must never see half of it.
    writeFileAtomic(o.outputPath, text);
  }
}

}  // namespace pf::check

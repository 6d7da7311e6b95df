// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Where the gate's answer goes: the terminal summary (default), any reporter's format (--format, to --output or
// stdout), the result document (--json) and JUnit XML (--junit). Shared by `preflight pairs` and `check`.
#pragma once

#include <string>

#include "pf/result.hpp"

namespace pf::check {

struct OutputOptions {
  std::string format = "summary";  ///< "summary" or a reporter format (json, prometheus, junit, ...)
  std::string outputPath = "-";    ///< where --format goes
  std::string jsonPath, junitPath;
};

/// Checks the format exists and every path can be written, before anything runs. @throws UsageError
void validateOutputs(const OutputOptions& o);

/// Writes every requested output (rank 0 only). @param summary the text the "summary" format prints
void emitOutputs(const RunReport& report, const OutputOptions& o, const std::string& summary);

}  // namespace pf::check

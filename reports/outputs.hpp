// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One run's outputs: every reporter the command line asked for (--format to --output, --json, --junit), fed
// the same stream of calls. Rank 0 owns it; the other ranks report nothing.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "reporter.hpp"

namespace pf::reports {

struct OutputSpec {
  std::string format;  ///< a reporter format
  std::string path;    ///< "-" stdout, else a file
};

class Outputs {
 public:
  Outputs() = default;
  /// @throws UsageError for an unknown format or a path that cannot be written.
  Outputs(const std::vector<OutputSpec>& specs, const ReportOptions& options);

  void begin(const Context& context);
  void rows(const Result& running, std::size_t first);
  void result(const Result& finished);
  /// Ends every reporter and writes its file.
  void end(const RunReport& report);
  /// A finished document through the whole stream (begin, rows, result, end): `preflight report`.
  void replay(const RunReport& report);

 private:
  std::vector<std::pair<std::unique_ptr<Reporter>, Output>> sinks_;
};

}  // namespace pf::reports

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One run's outputs: every reporter the command line asked for (--format to --output, --json, --junit), fed
// the same stream of calls. Rank 0 owns it; the other ranks report nothing. Its calls may race with one from
// another thread, the partial writer (a signal, --timeout), so each takes the same lock.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
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

  /// Writes the documents so far, marked partial with `why` and `code` (Reporter::interrupted), and returns the
  /// files written. For another thread: safe beside the calls above, and a no-op once this Outputs is gone.
  using PartialWriter = std::function<std::vector<std::string>(const std::string& why, ExitCode code)>;
  PartialWriter partialWriter() const;

 private:
  struct State {
    // Timed: a writer that cannot get the lock in time (stdout blocked inside a rows() call) gives up
    // instead of hanging the very exit it was called for.
    std::timed_mutex mutex;
    std::vector<std::pair<std::unique_ptr<Reporter>, Output>> sinks;
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

}  // namespace pf::reports

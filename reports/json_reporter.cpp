// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The result document. Written to a file, it also streams: while a long result runs (a multi-hour sweep),
// the document so far is rewritten atomically every few seconds, marked partial, so a crash or a kill loses
// nothing already measured. A run stopped from outside (a signal, --timeout) writes it once more, at once.
#include <optional>

#include "pf/error.hpp"
#include "pf/timer.hpp"
#include "reporter.hpp"

namespace pf::reports {
namespace {

Status partialStatus(ExitCode code) { return code == ExitCode::kTimeout ? Status::kTimeout : Status::kError; }

class JsonReporter final : public Reporter {
 public:
  void begin(const Context& context, Output&) override { sofar_.context = context; }

  void rows(const Result& running, std::size_t, Output& out) override {
    if (!out.toFile()) return;
    // Kept for interrupted(): a signal may come between two snapshots.
    running_ = running;
    if (sinceSnapshot_.seconds() < options().snapshotSeconds) return;
    sinceSnapshot_.reset();
    out.snapshot(partial("partial: the run did not finish", ExitCode::kRuntime));
  }

  void result(const Result& finished, Output& out) override {
    // Only a document written to a file is ever written partial; on stdout the copy (thousands of rows for the
    // doctor's processes) would go unused.
    if (out.toFile()) sofar_.results.push_back(finished);
    running_.reset();
  }

  bool interrupted(const std::string& why, ExitCode code, Output& out) override {
    out.snapshot(partial("partial: " + why, code));
    return true;
  }

  void end(const RunReport& report, Output& out) override { out.write(toJson(report).dump(2) + "\n"); }

 private:
  // The finished results and the running one, flagged partial: a reader must never take it for a whole run.
  std::string partial(const std::string& message, ExitCode code) const {
    RunReport snapshot = sofar_;
    snapshot.context.extra["partial"] = true;
    snapshot.context.extra["partial_reason"] = message;
    if (running_) {
      Result r = *running_;
      r.status = partialStatus(code);
      r.message = message;
      snapshot.results.push_back(std::move(r));
    }
    // The process's own end: a timeout reads as one (exit 4), a signal as 128 + the signal, anything else as
    // an error; `preflight report` of this file exits with the same code.
    snapshot.verdict = partialStatus(code);
    snapshot.exit_code = static_cast<int>(code);
    return toJson(snapshot).dump(2) + "\n";
  }

  RunReport sofar_;
  std::optional<Result> running_;
  Timer sinceSnapshot_;
};

PF_REGISTER_REPORTER(JsonReporter, "json");

}  // namespace
}  // namespace pf::reports

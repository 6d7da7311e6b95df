// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The result document. Written to a file, it also streams: while a long result runs (a multi-hour sweep),
// the document so far is rewritten atomically every few seconds, marked partial, so a crash or a kill loses
// nothing already measured.
#include "pf/error.hpp"
#include "pf/timer.hpp"
#include "reporter.hpp"

namespace pf::reports {
namespace {

class JsonReporter final : public Reporter {
 public:
  void begin(const Context& context, Output&) override { sofar_.context = context; }

  void rows(const Result& running, std::size_t, Output& out) override {
    if (!out.toFile() || sinceSnapshot_.seconds() < options().snapshotSeconds) return;
    sinceSnapshot_.reset();
    RunReport snapshot = sofar_;
    snapshot.context.extra["partial"] = true;
    Result r = running;
    r.status = Status::kError;
    r.message = "partial: the run did not finish";
    snapshot.results.push_back(std::move(r));
    snapshot.verdict = Status::kError;
    snapshot.exit_code = static_cast<int>(ExitCode::kRuntime);
    out.snapshot(toJson(snapshot).dump(2) + "\n");
  }

  void result(const Result& finished, Output&) override { sofar_.results.push_back(finished); }

  void end(const RunReport& report, Output& out) override { out.write(toJson(report).dump(2) + "\n"); }

 private:
  RunReport sofar_;
  Timer sinceSnapshot_;
};

PF_REGISTER_REPORTER(JsonReporter, "json");

}  // namespace
}  // namespace pf::reports

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The terminal format: what each command prints, through the view registered for the document's command.
// "summary" is the same format under the name `check` and `pairs` used for it before.
#include <fmt/format.h>

#include <memory>

#include "reporter.hpp"
#include "text/text_view.hpp"

namespace pf::reports {

std::string formatEvidence(const Evidence& e) {
  std::string s = e.what;
  if (!e.value.is_null())
    s += ": " + (e.value.is_string() ? e.value.get<std::string>() : e.value.dump()) +
         (e.unit.empty() ? "" : " " + e.unit);
  if (!e.source.empty()) s += " (" + e.source + ")";
  return s;
}

std::string statusLines(const std::vector<Result>& results) {
  std::string s;
  for (const Result& r : results) {
    s += fmt::format("{:<7} {:<28} {}{}\n", toString(r.status), r.key, r.host.empty() ? "" : r.host + ": ", r.message);
    if (!r.remedy.empty() && (r.status == Status::kWarn || r.status == Status::kFail || r.status == Status::kError ||
                              r.status == Status::kTimeout))
      s += fmt::format("        fix: {}\n", r.remedy);
  }
  return s;
}

namespace {

// Documents of commands without a view of their own: sweeps as their table, everything else as status lines.
class StatusView final : public TextView {
 public:
  std::string end(const RunReport& report) override {
    std::string s;
    for (const Result& r : report.results)
      s += r.kind == Kind::kSweep && !r.rows.empty() ? sweepTable(r, report.context, options()) : statusLines({r});
    return s;
  }
};

class TableReporter : public Reporter {
 public:
  void begin(const Context& context, Output&) override {
    view_ = Registry<TextView>::instance().create(context.command);
    if (!view_) view_ = std::make_unique<StatusView>();
    view_->setup(context, options());
  }
  void rows(const Result& running, std::size_t first, Output& out) override { out.write(view_->rows(running, first)); }
  void result(const Result& finished, Output& out) override { out.write(view_->result(finished)); }
  void end(const RunReport& report, Output& out) override { out.write(view_->end(report)); }

 private:
  std::unique_ptr<TextView> view_;
};

class SummaryReporter final : public TableReporter {};

PF_REGISTER_REPORTER(TableReporter, "table");
PF_REGISTER_REPORTER(SummaryReporter, "summary");

}  // namespace
}  // namespace pf::reports

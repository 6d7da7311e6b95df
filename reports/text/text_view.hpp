// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What one command prints in the terminal (the "table" format), one view per command, each registered under
// the command's name. The table reporter picks the view from the document's context.command, so a saved
// document is shown by `preflight report` exactly as its command showed it live. A view is fed the same
// stream of calls as a Reporter and returns the text each call adds.
#pragma once

#include <cstddef>
#include <string>

#include "pf/registry.hpp"
#include "pf/result.hpp"
#include "reporter.hpp"

namespace pf::reports {

class TextView {
 public:
  virtual ~TextView() = default;
  void setup(const Context& context, const ReportOptions& options) {
    context_ = context;
    options_ = options;
  }
  virtual std::string rows(const Result& /*running*/, std::size_t /*first*/) { return {}; }
  virtual std::string result(const Result& /*finished*/) { return {}; }
  virtual std::string end(const RunReport& report) = 0;

 protected:
  const Context& context() const { return context_; }
  const ReportOptions& options() const { return options_; }

 private:
  Context context_;
  ReportOptions options_;
};

/// "what: value unit (source)", the one way evidence is shown in text.
std::string formatEvidence(const Evidence& e);

/// A whole sweep result as the nccl-tests table (header, rows, footer, notes): for documents of other commands.
std::string sweepTable(const Result& sweep, const Context& context, const ReportOptions& options);

/// Status lines ("warn    probe.net   node1: message", then "fix: remedy"): the view of commands without one.
std::string statusLines(const std::vector<Result>& results);

}  // namespace pf::reports

#define PF_REGISTER_TEXT_VIEW(Type, command) PF_REGISTER(::pf::reports::TextView, Type, command)

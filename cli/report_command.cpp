// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight report FILE`: renders a saved result document in any output format, through the same reporters
// and the same calls the live command made, so `--format table` prints what the command printed.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "command.hpp"
#include "outputs.hpp"
#include "pf/report_io.hpp"

namespace pf::cli {
namespace {

class ReportCommand final : public Command {
 public:
  std::string summary() const override { return "render a saved result document as a table, CSV, JSON, ..."; }

  void setup(CLI::App& app) override {
    app.add_option("file", file_, "result document written with --json ('-' = stdin)")->required();
    app.add_option("--format", format_, fmt::format("output format: {}", fmt::join(reports::reporterFormats(), ", ")))
        ->capture_default_str();
    app.add_option("--output", output_, "write to FILE instead of stdout (atomically)");
    app.add_flag("--strict", view_.strict, "as the command's --strict: the summary says warnings fail");
    app.add_flag("-v,--verbose", view_.verbose, "as doctor --verbose: every evidence line and process");
    app.add_flag("--iter-columns", view_.iterColumns, "as sweep --iter-columns: p50, p99 and skew columns");
    app.footer(
        "The exit code is the document's own (0 pass, 1 fail...), so scripts can gate on a saved run.\n\n"
        "Examples:\n"
        "  preflight report ar.json                    # the nccl-tests table again\n"
        "  preflight report check.json                 # the check's summary again\n"
        "  preflight report ar.json --format csv --output ar.csv");
  }

  int run(const Invocation&) override {
    // An unknown format or an unwritable path is exit 2 before the file is read.
    reports::Outputs out({{format_, output_.empty() ? "-" : output_}}, view_);
    RunReport report = readReport(file_);
    out.replay(report);
    return report.exit_code;
  }

 private:
  std::string file_, format_ = "table", output_;
  reports::ReportOptions view_;
};

PF_REGISTER_COMMAND(ReportCommand, "report");

}  // namespace
}  // namespace pf::cli

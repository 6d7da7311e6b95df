// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight report FILE`: renders a saved result document in any output format, through the same reporters
// the live commands use (there is one reader and one result model; no format is parsed back).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "command.hpp"
#include "pf/report_io.hpp"
#include "reporter.hpp"

namespace pf::cli {
namespace {

class ReportCommand final : public Command {
 public:
  std::string name() const override { return "report"; }
  std::string summary() const override { return "render a saved result document as a table, CSV, JSON, ..."; }

  void setup(CLI::App& app) override {
    app.add_option("file", file_, "result document written with --json ('-' = stdin)")->required();
    app.add_option("--format", format_,
                   fmt::format("output format: {}", fmt::join(reports::reporterFormats(), ", ")))
        ->capture_default_str();
    app.add_option("-o,--output", output_, "write to FILE instead of stdout (atomically)");
    app.footer(
        "The exit code is the document's own (0 pass, 1 fail...), so scripts can gate on a saved run.\n\n"
        "Examples:\n"
        "  preflight report ar.json                    # the nccl-tests table again\n"
        "  preflight report ar.json --format csv -o ar.csv");
  }

  int run(const Invocation&) override {
    auto reporter = reports::makeReporter(format_);
    checkWritable(output_);
    RunReport report = readReport(file_);
    writeFileAtomic(output_.empty() ? "-" : output_, reporter->render(report));
    return report.exit_code;
  }

 private:
  std::string file_, format_ = "table", output_;
};

PF_REGISTER_COMMAND(ReportCommand, "report");

}  // namespace
}  // namespace pf::cli

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight report FILE...`: renders saved results in any output format, through the same reporters and the
// same calls the live command made, so `--format table` prints what the command printed. A FILE may also be
// nccl-tests or rccl-tests output (text, or nccl-tests' -J JSON): it is imported first (pf/import.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "command.hpp"
#include "document_input.hpp"
#include "outputs.hpp"
#include "pf/report_io.hpp"

namespace pf::cli {
namespace {

// Several files become one document: the first one's context, every file's results (keys kept unique), and
// the exit code of the worst verdict among them.
RunReport merge(std::vector<RunReport> reports) {
  RunReport all = std::move(reports.front());
  std::map<std::string, int> keys;
  for (const Result& r : all.results) keys[r.key] = 1;
  for (size_t i = 1; i < reports.size(); ++i) {
    for (Result& r : reports[i].results) {
      if (int n = ++keys[r.key]; n > 1) r.key += fmt::format(".f{}", i + 1);
      all.results.push_back(std::move(r));
    }
    for (Phase& p : reports[i].phases) all.phases.push_back(std::move(p));
    if (worst(all.verdict, reports[i].verdict) != all.verdict) {
      all.verdict = reports[i].verdict;
      all.exit_code = reports[i].exit_code;
    }
  }
  return all;
}

class ReportCommand final : public Command {
 public:
  std::string summary() const override {
    return "render saved results (or nccl-tests output) as a table, CSV, JSON, ...";
  }

  void setup(CLI::App& app) override {
    app.add_option("file", files_,
                   "result document written with --json, or nccl-tests/rccl-tests output (text or -J JSON); "
                   "'-' = stdin; several files are rendered as one document")
        ->required();
    app.add_option("--format", format_, fmt::format("output format: {}", fmt::join(reports::reporterFormats(), ", ")))
        ->capture_default_str();
    app.add_option("--output", output_, "write to FILE instead of stdout (atomically)");
    app.add_flag("--strict", view_.strict, "as the command's --strict: the summary says warnings fail");
    app.add_flag("-v,--verbose", view_.verbose, "as doctor --verbose: every evidence line and process");
    app.add_flag("--iter-columns", view_.iterColumns, "as sweep --iter-columns: p50, p99 and skew columns");
    app.footer(
        "The exit code is the document's own (0 pass, 1 fail...), so scripts can gate on a saved run. nccl-tests\n"
        "output is imported first: each collective run becomes a sweep result; lines it cannot read are listed\n"
        "on stderr as FILE:LINE (docs/reports.md).\n\n"
        "Examples:\n"
        "  preflight report ar.json                    # the nccl-tests table again\n"
        "  preflight report check.json                 # the check's summary again\n"
        "  preflight report all_reduce_perf.log --format json --output ar.json\n"
        "  mpirun ... all_reduce_perf -b 8 -e 1G -f 2 | preflight report - --format html --output ar.html\n"
        "  preflight report ar.json --format csv --output ar.csv");
  }

  int run(const Invocation&) override {
    // An unknown format or an unwritable path is exit 2 before any file is read.
    reports::Outputs out({{format_, output_.empty() ? "-" : output_}}, view_);
    std::vector<RunReport> reports;
    for (const std::string& f : files_) {
      reports.push_back(readInputDocument(f));
    }
    RunReport report = merge(std::move(reports));
    out.replay(report);
    return report.exit_code;
  }

 private:
  std::vector<std::string> files_;
  std::string format_ = "table", output_;
  reports::ReportOptions view_;
};

PF_REGISTER_COMMAND(ReportCommand, "report");

}  // namespace
}  // namespace pf::cli

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight compare BASE NEW...`: each NEW run against BASE, figure by figure, with the signed change and
// the regressions beyond --threshold (and beyond the runs' own noise) flagged; exit 1 when something
// regressed, so CI and fleet operators can gate on a baseline. The rules are in reports/compare/compare.hpp.
#include <fmt/format.h>

#include <filesystem>

#include "command.hpp"
#include "common_options.hpp"
#include "compare/compare.hpp"
#include "document_input.hpp"
#include "pf/error.hpp"
#include "pf/verdict.hpp"

namespace pf::cli {
namespace {

/// "5", "5%" or "5.5 %" -> 5.5. @throws UsageError naming the option.
double parsePercent(const std::string& text, const char* option) {
  std::string t = text;
  while (!t.empty() && (t.back() == '%' || t.back() == ' ')) t.pop_back();
  std::size_t used = 0;
  double v = -1;
  try {
    v = std::stod(t, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (t.empty() || used != t.size() || !(v > 0 && v < 100))  // !(in range): nan passes `v <= 0 || v >= 100`
    throw UsageError(fmt::format("{} '{}': expected a percentage between 0 and 100, e.g. 5%", option, text));
  return v;
}

class CompareCommand final : public Command {
 public:
  std::string summary() const override { return "compare runs with a baseline: signed % change, regressions flagged"; }

  void setup(CLI::App& app) override {
    app.add_option("base", base_, "the baseline: a result document, or nccl-tests/rccl-tests output (text or -J JSON)")
        ->required();
    app.add_option("new", news_, "one or more runs to compare with it; several are overlaid on one chart")->required();
    app.add_option("--threshold", threshold_, "a figure that moves the wrong way by more than this regressed")
        ->capture_default_str();
    app.add_option("--latency-slack-us", options_.latencySlackUs,
                   "a latency-bound time must also grow by this many microseconds")
        ->capture_default_str();
    app.add_option("--noise-k", options_.noiseK,
                   "limits widen to K x the runs' robust spread of changes (0 = the threshold alone)")
        ->capture_default_str();
    common_.addOutputs(app);
    common_.addStrict(app);
    app.footer(
        "Sweeps are compared per collective, type/op and size: bandwidth-bound sizes by busbw, latency-bound ones\n"
        "by time (size-aware, as `preflight check`); pairs per host pair; scaling runs per world size; every other\n"
        "result by its status. A change is a regression beyond --threshold and beyond the noise the runs show\n"
        "themselves (docs/reports.md). Exit code: 0 no regression, 1 a regression, 2 unreadable input.\n\n"
        "Examples:\n"
        "  preflight compare baseline.json today.json\n"
        "  preflight compare before.json after-node1.json after-node2.json --format html --output cmp.html\n"
        "  preflight compare golden.json run.json --threshold 10% --format md --output cmp/report.md");
  }

  int run(const Invocation& inv) override {
    common_.validateOutputs();
    options_.thresholdPct = parsePercent(threshold_, "--threshold");
    if (!(options_.latencySlackUs >= 0 && options_.latencySlackUs <= 1e9))  // nan and inf too
      throw UsageError("--latency-slack-us must be >= 0 and finite");
    if (!(options_.noiseK >= 0 && options_.noiseK <= 1e6)) throw UsageError("--noise-k must be >= 0 and finite");
    const reports::compare::Labelled base{label(base_), readInputDocument(base_)};
    std::vector<reports::compare::Labelled> news;
    for (const auto& f : news_) news.push_back({label(f), readInputDocument(f)});
    RunReport report = reports::compare::compareDocuments(base, news, options_);
    report.context.version = version();
    for (int i = 0; i < *inv.argc; ++i) report.context.argv.push_back((*inv.argv)[i]);
    applyVerdict(report, common_.strict);
    common_.makeOutputs().replay(report);
    return report.exit_code;
  }

 private:
  static std::string label(const std::string& path) {
    return path == "-" ? "stdin" : std::filesystem::path(path).filename().string();
  }

  std::string base_, threshold_ = "5%";
  std::vector<std::string> news_;
  reports::compare::CompareOptions options_;
  CommonOptions common_;
};

PF_REGISTER_COMMAND(CompareCommand, "compare");

}  // namespace
}  // namespace pf::cli

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight history FILE`: what the checks recorded with `check --history FILE` say over time: the runs, the
// nodes that failed k of their last n checks, the first run in which a node's or a pair's bandwidth fell below
// its earlier median, and one node's figures over time (--node). A result document of command "history", so the
// table, JSON and HTML formats (with a chart of bandwidth over the runs) and the viewer all read it.
#include <fmt/format.h>

#include <cstdio>

#include "command.hpp"
#include "common_options.hpp"
#include "history_report.hpp"
#include "history_store.hpp"
#include "pf/error.hpp"
#include "pf/timer.hpp"
#include "pf/verdict.hpp"

namespace pf::cli {
namespace {

class HistoryCommand final : public Command {
 public:
  std::string summary() const override {
    return "the recorded checks over time: failing nodes, first-seen regressions, a node's bandwidth";
  }

  void setup(CLI::App& app) override {
    app.add_option("file", path_, "history file written by `preflight check --history FILE`")->required();
    app.add_option("--flapping", flapping_, "list the nodes that failed at least K of their last N checks")
        ->capture_default_str();
    app.add_option("--drop", options_.dropPercent,
                   "a figure more than this % below the median of its earlier runs (3 or more) is a regression")
        ->capture_default_str();
    app.add_option("--last", options_.lastRuns, "runs listed, the newest (0 = all)")->capture_default_str();
    app.add_option("--node", options_.node, "one node's bandwidth and findings run by run");
    common_.addOutputs(app);
    common_.addStrict(app);
    app.footer(
        "Flapping nodes and regressions are warnings (exit 0; 1 with --strict); an unreadable file or one that is\n"
        "not a Preflight history file exits 2. The HTML format charts each node's bandwidth over the runs.\n\n"
        "Examples:\n"
        "  preflight history /shared/preflight/history.db\n"
        "  preflight history history.db --flapping 3/10 --drop 15\n"
        "  preflight history history.db --node gpu-node-17\n"
        "  preflight history history.db --format html --output history.html --json history.json");
  }

  int run(const Invocation& inv) override {
    common_.validateOutputs();
    int k = 0, n = 0;
    char extra = 0;
    if (std::sscanf(flapping_.c_str(), "%d/%d%c", &k, &n, &extra) != 2 || k < 1 || n < k || n > 100000)
      throw UsageError(
          fmt::format("--flapping '{}': expected K/N with 1 <= K <= N, e.g. 2/5 (failed 2 of the last 5)", flapping_));
    options_.failedK = k;
    options_.failedN = n;
    if (!(options_.dropPercent > 0 && options_.dropPercent < 100))
      throw UsageError(fmt::format("--drop {}: expected a percentage between 0 and 100", options_.dropPercent));
    if (options_.lastRuns < 0) throw UsageError("--last must be 0 (all) or more");
    const std::string started = utcNowIso8601();
    RunReport report =
        history::historyReport(history::Store::open(path_, history::Store::Mode::kRead)->runs(), options_);
    report.context.version = version();
    report.context.start_time = started;
    report.context.end_time = utcNowIso8601();
    report.context.extra["history_file"] = path_;
    for (int i = 0; i < *inv.argc; ++i) report.context.argv.push_back((*inv.argv)[i]);
    applyVerdict(report, common_.strict);
    common_.makeOutputs().replay(report);
    return report.exit_code;
  }

 private:
  std::string path_, flapping_ = "2/5";
  history::HistoryOptions options_;
  CommonOptions common_;
};

PF_REGISTER_COMMAND(HistoryCommand, "history");

}  // namespace
}  // namespace pf::cli

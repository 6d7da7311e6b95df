// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight probe`: runs the node-local probes (host, net, nccl, ib, sriov, efa, gpu, p2p, topo) on every rank
// and, under a launcher, gathers them on rank 0 into one document with a cross-node consistency check.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "command.hpp"
#include "consistency.hpp"
#include "gather.hpp"
#include "launch.hpp"
#include "pf/error.hpp"
#include "pf/report_io.hpp"
#include "pf/timer.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::cli {
namespace {

using probes::Probe;

class ProbeCommand final : public Command {
 public:
  std::string name() const override { return "probe"; }
  std::string summary() const override {
    return "check this node's (or every node's) NICs, GPUs, InfiniBand, EFA, NCCL variables and limits";
  }

  void setup(CLI::App& app) override {
    app.add_option("--only", only_, "run only these probes (comma-separated, see --list)")->delimiter(',');
    app.add_option("--sysfs-root", root_, "read a captured tree rooted at DIR instead of / (files only, no libraries)");
    app.add_option("--env-file", envFile_,
                   "take the environment from FILE (KEY=VALUE lines) instead of the process; with --sysfs-root "
                   "and no --env-file the environment is empty");
    app.add_option("--json", jsonPath_, "write the result document to FILE ('-' = stdout, replaces the summary)");
    app.add_option("--local-ranks", localRanks_, "with no launcher, start N ranks on this machine through mpirun");
    app.add_flag("--quick", quick_, "skip measurements that take more than ~100 ms (p2p copy bandwidth)");
    app.add_flag("--strict", strict_, "exit 1 on warnings too");
    app.add_flag("--list", list_, "list the probes and exit");
    app.footer(
        "Each probe reports pass, warn, fail, absent (not on this node, with what was looked for) or error,\n"
        "with the values it read and where from, and a remedy for warn and fail. Under a launcher every rank\n"
        "probes its node and rank 0 writes one document; nodes that differ from the majority are named.\n"
        "Exit code: 0 pass (warnings allowed unless --strict), 1 a probe failed, 2 bad input, 3 a probe\n"
        "could not run.\n\n"
        "Examples:\n"
        "  preflight probe\n"
        "  preflight probe --only net,nccl --json probe.json\n"
        "  mpirun -np 16 --map-by ppr:1:node preflight probe --json all-nodes.json\n"
        "  preflight probe --sysfs-root tests/fixtures/ib-ndr --env-file job.env --json -");
  }

  int run(const Invocation& inv) override {
    auto& registry = Registry<Probe>::instance();
    if (list_) {
      for (const auto& key : registry.keys())
        std::cout << fmt::format("{:<10} {}\n", key, registry.create(key)->description());
      return 0;
    }
    checkWritable(jsonPath_);
    if (!root_.empty() && !std::filesystem::is_directory(root_))
      throw UsageError(fmt::format("--sysfs-root: '{}' is not a directory; give the root of a captured tree", root_));
    // Read the view first so a bad --env-file or --only is reported before any rank is launched.
    probes::SystemView view = makeView();
    for (const auto& o : only_)
      if (!registry.contains(o))
        throw UsageError(
            fmt::format("--only: no probe named '{}'; known probes: {}", o, fmt::join(registry.keys(), ", ")));

    Environment procEnv = Environment::fromProcess();
    LauncherEnv launcher = detectLauncher(procEnv);
    relaunchLocally(localRanks_, inv, launcher);
    auto boot = startBootstrap(inv, launcher);

    RunReport report;
    report.context = gatherContext("probe", inv, *boot, launcher);
    if (!root_.empty()) report.context.extra["sysfs_root"] = root_;
    Timer timer;
    probes::ProbeOptions opt;
    opt.quick = quick_;
    std::vector<Result> local = probes::runProbes(view, opt, only_);
    report.phases.push_back({"probes", timer.seconds()});
    auto gathered = probes::gatherResults(*boot, probes::nodeName(view), local);
    if (boot->rank() != 0) return 0;

    report.results = probes::flatten(gathered);
    std::vector<Result> diffs = probes::checkConsistency(gathered);
    report.results.insert(report.results.end(), diffs.begin(), diffs.end());
    report.context.end_time = utcNowIso8601();
    finishVerdict(report);
    if (!jsonPath_.empty()) writeReport(report, jsonPath_);
    if (jsonPath_ != "-") std::cout << summaryText(gathered, diffs);
    return report.exit_code;
  }

 private:
  probes::SystemView makeView() const {
    if (root_.empty() && envFile_.empty()) return probes::SystemView::live();
    Environment env = envFile_.empty() ? (root_.empty() ? Environment::fromProcess() : Environment())
                                       : Environment::fromFile(envFile_);
    // Only the live root may call libraries: a captured tree has files, not devices.
    return probes::SystemView(root_.empty() ? "/" : root_, std::move(env), root_.empty());
  }

  /// fail -> 1; error (a probe could not run) -> 3; warn -> 1 only with --strict.
  void finishVerdict(RunReport& report) const {
    bool fail = false, error = false, warn = false;
    for (const auto& r : report.results) {
      fail |= r.status == Status::kFail;
      error |= r.status == Status::kError;
      warn |= r.status == Status::kWarn;
    }
    report.verdict = fail ? Status::kFail : error ? Status::kError : (warn && strict_) ? Status::kWarn : Status::kPass;
    report.exit_code = fail || (warn && strict_) ? static_cast<int>(ExitCode::kCheckFailed)
                       : error                   ? static_cast<int>(ExitCode::kRuntime)
                                                 : 0;
  }

  static std::string summaryText(const std::vector<probes::RankResults>& gathered, const std::vector<Result>& diffs) {
    std::string out = probes::summarize(gathered);
    if (!diffs.empty()) {
      out += "\nNodes that differ from the majority:\n";
      for (const auto& d : diffs)
        out += fmt::format("  [{}] {}\n      fix: {}\n", toString(d.status), d.message, d.remedy);
    }
    return out;
  }

  std::vector<std::string> only_;
  std::string root_, envFile_, jsonPath_;
  int localRanks_ = 1;
  bool quick_ = false, strict_ = false, list_ = false;
};

PF_REGISTER_COMMAND(ProbeCommand, "probe");

}  // namespace
}  // namespace pf::cli

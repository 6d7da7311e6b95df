// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight pairs`: the node-pair bandwidth and latency matrix, in tournament rounds, with robust outlier
// analysis that names the slow node or link. `preflight check` runs the same phase inside the gate.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "baseline.hpp"
#include "command.hpp"
#include "gate_cli.hpp"
#include "launch.hpp"
#include "pair_engine.hpp"
#include "pairs_phase.hpp"
#include "pf/error.hpp"
#include "pf/progress.hpp"
#include "pf/report_io.hpp"
#include "pf/timer.hpp"
#include "pf/units.hpp"
#include "pf/verdict.hpp"
#include "rails.hpp"
#include "reporter.hpp"
#include "thresholds.hpp"
#include "verdict.hpp"

namespace pf::cli {
namespace {

using check::PairEngine;

class PairsCommand final : public Command {
 public:
  std::string summary() const override {
    return "node-pair bandwidth/latency matrix in tournament rounds; names the slow node or link";
  }

  void setup(CLI::App& app) override {
    auto engines = Registry<PairEngine>::instance().keys();
    app.add_option("--engine", engine_,
                   fmt::format("who moves the bytes: {} (nccl: GPU buffers, ncclSend/Recv)", fmt::join(engines, ", ")))
        ->capture_default_str();
    app.add_option("-s,--size", size_, "bandwidth message size; K, M, G are 1024-based")->capture_default_str();
    app.add_option("-n,--iters", opts_.bwIters, "messages per burst")->capture_default_str();
    app.add_option("--trials", opts_.bwTrials, "bursts per direction; the best burst counts")->capture_default_str();
    app.add_option("--lat-iters", opts_.latIters, "timed 8-byte round trips per pair")->capture_default_str();
    app.add_option("--max-seconds", opts_.maxSecondsPerDirection,
                   "time cap of one direction's bandwidth loop, so a throttled link costs bounded time")
        ->capture_default_str();
    app.add_flag("--quick", quick_, "fewer messages: 3 bursts of 2 per direction, 20 round trips, 0.3 s cap");
    app.add_option("--rails", rails_,
                   "per rail, NIC i against NIC i: first (the engine's default path), all (every RDMA port), or "
                   "interfaces/RDMA devices (ib0,ib1); mpi engine only (docs/check.md, Every rail)")
        ->capture_default_str();
    gate_.addOptions(app,
                     "earlier result document of `preflight pairs` or `check`: fail on a drop beyond the "
                     "threshold");
    app.footer(
        "Ranks are grouped by hostname; each node's lowest rank tests it. N nodes take N-1 rounds of disjoint pairs\n"
        "(N rounds with a bye each for odd N). Per pair: bandwidth of --size messages in both directions and the\n"
        "median half round trip of 8-byte messages. The expected bandwidth comes from link rates when the probes\n"
        "know them, else from the healthy majority of pairs. Exit code 1 when a pair fails its limits.\n\n"
        "Examples:\n"
        "  mpirun -np 8 --map-by ppr:1:node preflight pairs\n"
        "  srun -N 16 --ntasks-per-node=1 preflight pairs --quick --json pairs.json\n"
        "  preflight pairs --baseline last-week.json --thresholds /etc/preflight/thresholds.toml");
  }

  int run(const Invocation& inv) override {
    opts_.bwBytes = parseSize(size_, "--size");
    if (opts_.bwBytes < 1 || opts_.bwBytes > (1ull << 30)) throw UsageError("--size must be between 1 byte and 1G");
    if (quick_) opts_ = check::quickPairOptions(opts_);
    // !(in range): nan compares false both ways and would pass a plain `<= 0` check.
    if (opts_.bwIters < 1 || opts_.bwTrials < 1 || opts_.latIters < 1 ||
        !(opts_.maxSecondsPerDirection > 0 && opts_.maxSecondsPerDirection <= 3600))
      throw UsageError(
          "--iters, --trials and --lat-iters must be at least 1 and --max-seconds above 0 and at most 3600");
    auto engine = Registry<PairEngine>::instance().create(engine_);
    if (!engine)
      throw UsageError(fmt::format("pair engine '{}' is not in this build: use one of {}", engine_,
                                   fmt::join(Registry<PairEngine>::instance().keys(), ", ")));
    railSpec_ = check::parseRailSpec(rails_);
    if (railSpec_.several() && !engine->canDriveRails())
      throw UsageError(
          fmt::format("--rails {}: the {} engine cannot drive one rail at a time in one launch; use "
                      "--engine mpi (docs/check.md, Every rail)",
                      rails_, engine_));
    gate_.load();
    return runOnRanks("pairs", inv, gate_.common, [&](Bootstrap& boot, const LauncherEnv& launcher) {
      return pairs(boot, launcher, *engine, inv);
    });
  }

 private:
  int pairs(Bootstrap& boot, const LauncherEnv& launcher, PairEngine& engine, const Invocation& inv) {
    RunReport report;
    report.context = gatherContext("pairs", inv, boot, launcher);
    reports::Outputs out;
    if (boot.rank() == 0) {
      out = gate_.common.makeOutputs();
      out.begin(report.context);
    }
    std::vector<std::string> hosts = boot.allGather(hostName());
    Timer phase;
    engine.init(boot, launcher);
    std::vector<check::Finding> railFindings;
    if (railSpec_.several()) railFindings = check::setUpRails(engine, boot, hosts, railSpec_, "/");
    report.phases.push_back({"init", phase.seconds()});
    report.context.extra["engine"] = engine.info();
    phase.reset();
    // Every round tests its pairs at the same time with the same sizes, so rounds cost alike: the time left is
    // the time so far per round done, times the rounds left.
    ProgressLine line("pairs", gate_.common.view.quiet);
    auto progress = [&line](int done, int total) {
      if (done < total)
        line.update(fmt::format("round {}/{} done", done, total),
                    secondsLeftByShare(line.elapsed(), done, total - done));
    };
    check::PairsPhase p = check::runPairsPhase(engine, boot, hosts, opts_, gate_.limits, {}, 1, progress);
    report.phases.push_back({"pairs", phase.seconds()});
    std::vector<check::Finding> findings = railFindings;
    findings.insert(findings.end(), p.analysis.findings.begin(), p.analysis.findings.end());
    if (!gate_.baselinePath.empty()) {
      auto reg = check::compareWithBaseline(gate_.baseline, report.context, p.rows, nullptr, 0,
                                            gate_.limits.regressionPercent);
      findings.insert(findings.end(), reg.begin(), reg.end());
    }
    report.results.push_back(p.result);
    for (Result& r : check::findingsToResults(findings)) report.results.push_back(std::move(r));
    applyVerdict(report, gate_.common.strict);
    report.context.end_time = utcNowIso8601();
    if (boot.rank() == 0) {
      for (const Result& r : report.results) out.result(r);
      out.end(report);
    }
    // mpirun ends the job when one rank exits non-zero: hold every rank until rank 0 has written its files.
    boot.barrier();
    return report.exit_code;
  }

  std::string engine_ = "mpi", size_ = "4M", rails_ = "first";
  check::RailSpec railSpec_;
  check::PairOptions opts_;
  bool quick_ = false;
  GateCli gate_;
};

PF_REGISTER_COMMAND(PairsCommand, "pairs");

}  // namespace
}  // namespace pf::cli

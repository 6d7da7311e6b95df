// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight check`: the pre-flight gate. In one launch: the probes (devices, NCCL settings, cross-node
// differences), a quick all-reduce at a few sizes with correctness checking, the node-pair matrix, and the
// verdict with a short summary naming each failing node, the check, the evidence and the remedy. Exit 0 pass,
// 1 fail (--strict: warnings fail too). Each phase's time is in the document's `phases`.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <iostream>

#include "allreduce_verdict.hpp"
#include "backend.hpp"
#include "baseline.hpp"
#include "command.hpp"
#include "gate_cli.hpp"
#include "history_store.hpp"
#include "launch.hpp"
#include "nccl_diag.hpp"
#include "pair_engine.hpp"
#include "pairs_phase.hpp"
#include "pf/error.hpp"
#include "pf/kernel_log.hpp"
#include "pf/log.hpp"
#include "pf/report_io.hpp"
#include "pf/timer.hpp"
#include "pf/units.hpp"
#include "pf/verdict.hpp"
#include "port_counters.hpp"
#include "probe_phase.hpp"
#include "rails.hpp"
#include "reporter.hpp"
#include "sweep.hpp"
#include "thresholds.hpp"
#include "verdict.hpp"

namespace pf::cli {
namespace {

using check::PairEngine;

class CheckCommand final : public Command {
 public:
  std::string summary() const override {
    return "pre-flight gate: probes, a quick all-reduce, the node-pair matrix and a verdict (exit 0 pass, 1 fail)";
  }

  void setup(CLI::App& app) override {
    app.add_flag("--quick", quick_,
                 "the fast gate for prologs: all-reduce at 3 sizes x 5 iterations, short pair bursts (pairs --quick)");
    app.add_option("--engine", engine_, "pair engine: mpi, or nccl in builds with NCCL")->capture_default_str();
    app.add_flag("--no-probes", noProbes_, "skip the probe phase");
    app.add_option("--profile", profilePath_,
                   "fail every node that misses or degrades what this node profile requires: a file, a built-in "
                   "name or auto (docs/probe.md)");
    app.add_option("--sysfs-root", probeInput_.root,
                   "probe a captured tree rooted at DIR instead of / (files only, no libraries)");
    app.add_option("--dcgm", probeInput_.dcgmLevel,
                   "run DCGM's diagnostic (dcgmi diag -r LEVEL, 1-4) on every node; failures become findings");
    app.add_option("--xid-since", xidSince_,
                   "the probes' Xid scan looks at the kernel log from this time on: an ISO time with its zone, "
                   "@SECONDS, a duration before now (30m, 2h, 1d) or boot (the default; docs/check.md)");
    app.add_flag("--no-allreduce", noAllReduce_, "skip the all-reduce phase");
    app.add_flag("--no-pairs", noPairs_, "skip the pair matrix");
    app.add_option("--history", historyPath_,
                   "append this run (verdict, findings, figures per node) to an SQLite history file; read it with "
                   "`preflight history FILE` (docs/history.md)");
    app.add_option("--rails", rails_,
                   "pair test per rail, NIC i against NIC i: first (the engine's default path), all (every RDMA port), "
                   "or interfaces/RDMA devices (ib0,ib1; mlx5_0,mlx5_1:1); mpi engine only (docs/check.md)")
        ->capture_default_str();
    gate_.addOptions(app,
                     "earlier result document of `preflight check`: fail when a pair or a bandwidth-bound "
                     "all-reduce size lost more than baseline.regression_percent (default 20%)");
    gate_.common.addEnvFile(app, "the NCCL and launcher variables the probes check");
    app.footer(
        "Run it as the first step of a job, one rank per node or more (every rank takes part in the all-reduce,\n"
        "each node's lowest rank in the pair matrix). Limits are relative to the expected bandwidth (link rates\n"
        "from the probes, else the healthy majority) and size-aware; see docs/check.md for the threshold file.\n\n"
        "Examples:\n"
        "  srun -N $SLURM_NNODES --ntasks-per-node=1 preflight check --quick || exit 1\n"
        "  mpirun -np 4 --map-by ppr:1:node preflight check --json check.json --junit check.xml\n"
        "  srun -N $SLURM_NNODES --ntasks-per-node=1 preflight check --quick --profile h100-node.toml\n"
        "  srun -N $SLURM_NNODES --ntasks-per-node=1 preflight check --quick --xid-since 1h  # a prolog: recent Xids\n"
        "  preflight check --quick --format prometheus --output /var/lib/node_exporter/textfile/preflight.prom");
  }

  int run(const Invocation& inv) override {
    if (quick_) pairOpts_ = check::quickPairOptions(pairOpts_);
    // The sizes (up to bandwidth-bound on the expected fabric) are chosen in gate(), from the probes' link rates.
    sweepOpts_.iters = quick_ ? 5 : 20;
    sweepOpts_.warmup = 1;
    sweepOpts_.checkIters = 1;
    sweepOpts_.perIterTiming = false;
    auto engine = Registry<PairEngine>::instance().create(engine_);
    if (!engine && !noPairs_)
      throw UsageError(fmt::format("pair engine '{}' is not in this build: use one of {}, or --no-pairs", engine_,
                                   fmt::join(Registry<PairEngine>::instance().keys(), ", ")));
    railSpec_ = check::parseRailSpec(rails_);
    if (railSpec_.several() && engine && !engine->canDriveRails())
      throw UsageError(fmt::format(
          "--rails {}: the {} engine cannot drive one rail at a time in one launch (NCCL reads NCCL_IB_HCA once per "
          "process); run one check per rail with NCCL_IB_HCA==mlx5_<i>, or use --engine mpi (docs/check.md, Every "
          "rail)",
          rails_, engine_));
    gate_.load();
    if (!probeInput_.root.empty() && !std::filesystem::is_directory(probeInput_.root))
      throw UsageError(
          fmt::format("--sysfs-root: '{}' is not a directory; give the root of a captured tree", probeInput_.root));
    if (noProbes_ && (!profilePath_.empty() || !probeInput_.root.empty() || !xidSince_.empty()))
      throw UsageError(
          "--no-probes excludes --profile, --sysfs-root and --xid-since: they are read by the probe phase");
    if (!xidSince_.empty()) probeInput_.xidSince = parseKernelLogSince(xidSince_, "--xid-since");
    if (!profilePath_.empty()) probeInput_.profile = check::loadCheckProfile(profilePath_, gate_.limits);
    check::validateDcgmLevel(probeInput_.dcgmLevel, noProbes_);
    if (!historyPath_.empty() && writesOutputs()) history::checkHistoryFile(historyPath_);
    return runOnRanks("check", inv, gate_.common, [&](Bootstrap& boot, const LauncherEnv& launcher) {
      return gate(boot, launcher, engine.get(), inv);
    });
  }

 private:
  int gate(Bootstrap& boot, const LauncherEnv& launcher, PairEngine* engine, const Invocation& inv) {
    check::Thresholds limits = gate_.limits;  // --profile auto adds the picked profiles' [expect] below
    const Environment env = gate_.common.environment();
    RunReport report;
    report.context = gatherContext("check", inv, boot, launcher);
    reports::Outputs out;
    if (boot.rank() == 0) {
      out = gate_.common.makeOutputs();
      out.begin(report.context);
    }
    report.context.extra["quick"] = quick_;
    report.context.extra["thresholds"] = limits.toJson();
    const std::vector<std::string> hosts = boot.allGather(hostName());
    // Each phase's results go to the outputs as the phase ends, so a run stopped later (a signal, a dead
    // peer, --timeout) leaves a partial document with what it had measured. The text views print at end().
    size_t streamed = 0;  // report.results given to the outputs
    size_t ahead = 0;     // results given before they join report.results (the all-reduce, the pairs)
    auto stream = [&] {
      if (boot.rank() == 0)
        for (; streamed < report.results.size(); ++streamed) out.result(report.results[streamed]);
    };
    auto streamAhead = [&](const Result& r) {
      if (boot.rank() == 0) out.result(r);
      ++ahead;
    };
    std::vector<check::Finding> findings;
    Timer phase;

    // 1. Probes: what each node has and how it is configured.
    std::vector<check::NodeLinks> links;
    if (!noProbes_) {
      check::ProbePhase probes = check::runProbePhase(boot, launcher, env, quick_, probeInput_);
      for (Result& r : probes.results) report.results.push_back(std::move(r));
      findings.insert(findings.end(), probes.findings.begin(), probes.findings.end());
      links = probes.links;
      check::applyDeclared(probes.declared, limits);
      report.context.extra["thresholds"] = limits.toJson();
      if (boot.rank() == 0 && !probes.declared.note.empty())
        std::cerr << "preflight: --profile auto: " << probes.declared.note << "\n";
      report.phases.push_back({"probes", phase.seconds()});
      stream();
    }

    // 2. A quick all-reduce with correctness on.
    Result sweep;
    bool haveSweep = false;
    if (!noAllReduce_) {
      phase.reset();
      // quick: 8 B, a middle size and the largest; full: x16 steps from 8 B. The summary states the measured sizes.
      const check::AllReduceSizes sizes = check::agreeAllReduceSizes(boot, links, limits.allreduce, quick_);
      sweepOpts_.minBytes = sizes.minBytes;
      sweepOpts_.maxBytes = sizes.maxBytes;
      sweepOpts_.stepFactor = sizes.stepFactor;
      sweep = allReduce(boot, launcher);
      sweep.params["largest_size_from"] = sizes.why;
      haveSweep = sweep.kind == Kind::kSweep && sweep.status != Status::kSkipped;
      report.phases.push_back({"allreduce", phase.seconds()});
      streamAhead(sweep);
    }

    // 3. The pair matrix.
    check::PairsPhase pairs;
    if (!noPairs_) {
      phase.reset();
      engine->init(boot, launcher);
      if (railSpec_.several()) {
        // The live node's ports: the bytes go over them, whatever tree --sysfs-root gave the probes.
        auto railFindings = check::setUpRails(*engine, boot, hosts, railSpec_, "/");
        findings.insert(findings.end(), railFindings.begin(), railFindings.end());
      }
      report.context.extra["engine"] = engine->info();
      if (boot.rank() == 0) {  // NCCL's own diagnostics, when the engine ran them (check/nccl_diag.hpp)
        auto diag = check::engineDiagnostics(report.context.extra["engine"], hosts.front());
        findings.insert(findings.end(), diag.begin(), diag.end());
      }
      // The ports' error counters around the phase that loads the links (check/port_counters.hpp).
      check::PortCounterWatch counters(boot, hosts, probeInput_.root);
      // Rails run over TCP sockets: the RDMA ports' link rate is no expectation for them, the majority is.
      pairs = check::runPairsPhase(*engine, boot, hosts, pairOpts_, limits,
                                   engine->railCount() > 0 ? std::vector<check::NodeLinks>{} : links, 1);
      findings.insert(findings.end(), pairs.analysis.findings.begin(), pairs.analysis.findings.end());
      check::PortCounterWatch::Outcome health = counters.finish();
      report.context.extra["port_counters"] = health.summary;
      findings.insert(findings.end(), health.findings.begin(), health.findings.end());
      report.phases.push_back({"pairs", phase.seconds()});
      streamAhead(pairs.result);
    }

    // 4. The verdict: size-aware all-reduce limits from the pair expectation, the baseline, the summary.
    phase.reset();
    if (!noAllReduce_) {
      if (haveSweep) {
        auto ar = check::judgeAllReduce(sweep, pairs.analysis.expected,
                                        static_cast<int>(pairs.analysis.nodeMedianBwGbps.size()), limits.allreduce);
        findings.insert(findings.end(), ar.begin(), ar.end());
        sweep.params["bandwidth_bound_from_bytes"] =
            check::bandwidthBoundBytes(pairs.analysis.expected, limits.allreduce);
      }
      report.results.push_back(sweep);
    }
    if (!noPairs_) report.results.push_back(pairs.result);
    streamed += ahead;  // the all-reduce and the pairs went out as their phases ended
    if (!gate_.baselinePath.empty()) {
      auto reg = check::compareWithBaseline(gate_.baseline, report.context, pairs.rows, haveSweep ? &sweep : nullptr,
                                            check::bandwidthBoundBytes(pairs.analysis.expected, limits.allreduce),
                                            limits.regressionPercent);
      findings.insert(findings.end(), reg.begin(), reg.end());
    }
    for (Result& r : check::findingsToResults(findings)) report.results.push_back(std::move(r));
    applyVerdict(report, gate_.common.strict);
    report.phases.push_back({"verdict", phase.seconds()});
    report.context.end_time = utcNowIso8601();
    if (boot.rank() == 0) {
      stream();
      out.end(report);
      if (!historyPath_.empty()) history::recordCheck(historyPath_, report);  // a failure warns, never changes exit
    }
    boot.barrier();  // keep every rank alive until rank 0 has written (mpirun ends the job on a non-zero exit)
    return report.exit_code;
  }

  // The all-reduce phase: the registry's MPI backend, a few sizes, correctness on. Skipped (with the reason)
  // on one rank or without the backend, never failed for that.
  Result allReduce(Bootstrap& boot, const LauncherEnv& launcher) {
    Result r;
    r.key = "sweep.all_reduce";
    r.kind = Kind::kCheck;
    r.status = Status::kSkipped;
    auto backend = Registry<collectives::Backend>::instance().create("mpi");
    auto coll = Registry<collectives::Collective>::instance().create("all_reduce");
    if (boot.size() < 2) {
      r.message = "all-reduce skipped: one rank (launch one rank per node or more to test the fabric)";
      return r;
    }
    if (!backend || !coll) {
      r.message = "all-reduce skipped: this preflight has no MPI backend";
      return r;
    }
    collectives::validateOptions(sweepOpts_, *coll, boot.size());
    backend->init(boot, launcher);
    return collectives::runSweep(*backend, boot, *coll, sweepOpts_);
  }

  bool quick_ = false, noProbes_ = false, noAllReduce_ = false, noPairs_ = false;
  std::string engine_ = "mpi", profilePath_, historyPath_, rails_ = "first", xidSince_;
  check::RailSpec railSpec_;
  check::ProbeInput probeInput_;
  check::PairOptions pairOpts_;
  collectives::SweepOptions sweepOpts_;
  GateCli gate_;
};

PF_REGISTER_COMMAND(CheckCommand, "check");

}  // namespace
}  // namespace pf::cli

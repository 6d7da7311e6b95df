// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight sweep <collective>`: nccl-tests-compatible bandwidth/latency sweeps on the MPI or NCCL backend.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "backend.hpp"
#include "command.hpp"
#include "common_options.hpp"
#include "launch.hpp"
#include "pf/error.hpp"
#include "pf/import.hpp"
#include "pf/log.hpp"
#include "pf/progress.hpp"
#include "pf/report_io.hpp"
#include "pf/timer.hpp"
#include "pf/units.hpp"
#include "pf/verdict.hpp"
#include "reporter.hpp"
#include "sweep.hpp"

namespace pf::cli {
namespace {

using collectives::Backend;
using collectives::Collective;

class SweepCommand final : public Command {
 public:
  std::string summary() const override {
    return "collective bandwidth/latency sweep (all_reduce, all_gather, ...), nccl-tests compatible";
  }

  void setup(CLI::App& app) override {
    auto collectives = Registry<Collective>::instance().keys();
    auto backends = Registry<Backend>::instance().keys();
    app.add_option("collective", collective_, fmt::format("collective to sweep: {}", fmt::join(collectives, ", ")))
        ->required();
    app.add_option("-b,--minbytes", minBytes_, "smallest size in bytes; K, M, G suffixes are 1024-based")
        ->capture_default_str();
    app.add_option("-e,--maxbytes", maxBytes_, "largest size in bytes")->capture_default_str();
    app.add_option("-i,--stepbytes", stepBytes_, "linear increment, used when --stepfactor is 1")
        ->capture_default_str();
    app.add_option("-f,--stepfactor", stepFactor_, "multiply the size by this each step (1 = linear steps)")
        ->capture_default_str();
    app.add_option("-n,--iters", opts_.iters, "timed iterations per size")->capture_default_str();
    app.add_option("-w,--warmup_iters", opts_.warmup, "untimed iterations before each size")->capture_default_str();
    app.add_option("-c,--check", opts_.checkIters,
                   "correctness-check iterations per size and placement; 0 disables (the #wrong column shows N/A)")
        ->capture_default_str();
    app.add_option("-N,--run_cycles", opts_.cycles,
                   "measure every size N times, one whole pass over the sizes after another (nccl-tests' -N); "
                   "`compare` takes each size's fastest pass, so brief interference on a shared host is not "
                   "mistaken for a regression")
        ->capture_default_str();
    app.add_option("-d,--datatype", dtype_,
                   "int8, uint8, int32, uint32, int64, uint64, half, bfloat16, float, double, or all")
        ->capture_default_str();
    app.add_option("-o,--op", op_, "reduction: sum, prod, max, min, avg, or all")->capture_default_str();
    app.add_option("-r,--root", opts_.root, "root rank of broadcast and reduce")->capture_default_str();
    app.add_option("-I,--per_iter_timing", perIter_,
                   "1 = also time every iteration alone for min/p50/p99/max and rank skew (JSON, CSV); 0 = off")
        ->capture_default_str();
    app.add_flag("--iter-columns", common_.view.iterColumns, "add p50, p99 and skew columns to the table");
    app.add_flag("--huge-pages", opts_.hugePages,
                 "host buffers of 2 MiB and more on transparent huge pages (madvise): with 4 KiB pages, large-message "
                 "times depend on where the kernel put each page (MPI backend; docs/sweep.md)");
    app.add_option("-J,--nccl-json", ncclJson_,
                   "also write the result in nccl-tests' -J JSON layout to FILE (rank 0, atomically; per-iteration "
                   "min/p50/p99/max with -I 1, null where nccl-tests has values Preflight does not keep)");
    app.add_option("--backend", backend_,
                   fmt::format("where buffers live and who moves them: {}", fmt::join(backends, ", ")))
        ->capture_default_str();
    common_.addOutputs(app);
    common_.addStrict(app);
    common_.addLocalRanks(app);
    common_.addTimeout(app);
    app.footer(
        "Sizes double from -b to -e (nccl-tests defaults differ: -b 32M -e 32M). Each size is measured out of\n"
        "place and in place; time is the mean over -n operations averaged across ranks; algbw = bytes / time and\n"
        "busbw = algbw x the collective's bus factor, exactly as nccl-tests reports them. Exit code 1 if any\n"
        "element was wrong.\n\n"
        "Examples:\n"
        "  preflight sweep all_reduce --local-ranks 4 -b 8 -e 16M -f 2\n"
        "  mpirun -np 16 preflight sweep all_gather -b 1M -e 1G -f 2 --backend nccl --json ag.json\n"
        "  srun -N 2 --ntasks-per-node=8 preflight sweep all_reduce -d bfloat16 -o all -c 1 --format csv --output "
        "ar.csv\n"
        "  preflight sweep all_reduce --local-ranks 2 -J ar.nccl.json   # read by tools made for nccl-tests -J\n"
        "  preflight sweep all_reduce --local-ranks 2 -N 3 --json base.json   # a baseline to `compare` against");
  }

  int run(const Invocation& inv) override {
    const Collective* coll = nullptr;
    auto collPtr = Registry<Collective>::instance().create(collective_);
    if (!collPtr)
      throw UsageError(fmt::format("unknown collective '{}': use one of {}", collective_,
                                   fmt::join(Registry<Collective>::instance().keys(), ", ")));
    coll = collPtr.get();
    opts_.minBytes = parseSize(minBytes_, "--minbytes");
    opts_.maxBytes = parseSize(maxBytes_, "--maxbytes");
    opts_.stepBytes = parseSize(stepBytes_, "--stepbytes");
    if (stepFactor_ < 1) throw UsageError(fmt::format("--stepfactor must be 1 or more (got {})", stepFactor_));
    opts_.stepFactor = static_cast<uint64_t>(stepFactor_);
    opts_.dtypes = collectives::parseDataTypes(dtype_);
    opts_.ops = collectives::parseRedOps(op_);
    if (perIter_ != 0 && perIter_ != 1) throw UsageError("--per_iter_timing takes 0 or 1");
    opts_.perIterTiming = perIter_ == 1;
    auto backend = Registry<Backend>::instance().create(backend_);
    if (!backend && Registry<Backend>::instance().keys().empty())
      throw UsageError(
          "this preflight was built without any collective backend: install Open MPI "
          "(apt-get install openmpi-bin libopenmpi-dev) and rebuild, or build with CUDA and NCCL");
    if (!backend)
      throw UsageError(
          fmt::format("backend '{}' is not in this build: use one of {} (the NCCL backend needs a "
                      "build with CUDA and NCCL)",
                      backend_, fmt::join(Registry<Backend>::instance().keys(), ", ")));
    if (opts_.hugePages && backend_ != "mpi")
      throw UsageError(
          fmt::format("--huge-pages places host buffers; the {} backend's live on the GPU: drop it", backend_));
    // Validate before launching anything, so a typo costs no mpirun start-up and a bad path no sweep.
    common_.validateOutputs();
    if (writesOutputs()) checkWritable(ncclJson_);
    // The world size is known here only with --local-ranks; otherwise the root is checked after launch.
    collectives::validateOptions(opts_, *coll, common_.localRanks > 1 ? common_.localRanks : opts_.root + 1);
    return runOnRanks("sweep", inv, common_, [&](Bootstrap& boot, const LauncherEnv& launcher) {
      return sweep(boot, launcher, *backend, *coll, inv);
    });
  }

 private:
  int sweep(Bootstrap& boot, const LauncherEnv& launcher, Backend& backend, const Collective& coll,
            const Invocation& inv) {
    RunReport report;
    report.context = gatherContext("sweep", inv, boot, launcher);
    Timer phase;
    backend.init(boot, launcher);
    report.phases.push_back({"init", phase.seconds()});
    report.context.extra["backend"] = backend.info();
    report.context.extra["devices"] = deviceLines(boot, backend);
    // The NCCL settings that choose the all-reduce algorithm: `preflight plan` reads them to tell a ring sweep
    // from a Tree/NVLS/CollNet one, which must not be extrapolated to more nodes as if it were a ring.
    Json settings = Json::object();
    for (const char* name : {"NCCL_ALGO", "NCCL_PROTO", "NCCL_NVLS_ENABLE", "NCCL_COLLNET_ENABLE"})
      if (const char* v = std::getenv(name)) settings[name] = v;
    report.context.extra["nccl_settings"] = settings;

    // Rank 0 streams every size to the reporters as it is measured: the table row, the partial document.
    const bool root = boot.rank() == 0;
    reports::Outputs out;
    if (root) {
      out = common_.makeOutputs();
      out.begin(report.context);
    }
    collectives::SweepCallbacks cb;
    cb.onRow = [&](const Result& running, size_t first) { out.rows(running, first); };
    // Progress on stderr with the time left: a fixed cost plus a cost per byte, fitted to the time each size
    // took so far, summed over the sizes still to run (a larger size takes longer, so no flat average).
    ProgressLine progress("sweep " + coll.key());
    Timer unitClock;
    std::vector<double> doneBytes, doneSeconds;
    cb.onProgress = [&](size_t done, const std::vector<uint64_t>& unitBytes) {
      doneBytes.push_back(static_cast<double>(unitBytes[done - 1]));
      doneSeconds.push_back(unitClock.seconds());
      unitClock.reset();
      if (done >= unitBytes.size()) return;
      std::vector<double> left(unitBytes.begin() + static_cast<std::ptrdiff_t>(done), unitBytes.end());
      progress.update(
          fmt::format("{}/{} sizes done (last {})", done, unitBytes.size(), humanBytes(unitBytes[done - 1])),
          secondsLeftByFit(doneBytes, doneSeconds, left));
    };

    phase.reset();
    Result result = collectives::runSweep(backend, boot, coll, opts_, cb);
    report.phases.push_back({"sweep", phase.seconds()});
    report.results.push_back(std::move(result));
    applyVerdict(report, common_.strict);
    report.context.end_time = utcNowIso8601();
    if (root) {
      out.result(report.results.back());
      out.end(report);
      if (!ncclJson_.empty()) writeFileAtomic(ncclJson_, toNcclTestsJson(report).dump(2) + "\n");
    }
    // mpirun kills the whole job as soon as one rank exits non-zero: hold every rank until rank 0 has written
    // its documents, or a failing sweep would lose the very report that shows the failure.
    boot.barrier();
    return report.exit_code;
  }

  // One entry per rank for the "# Using devices" lines: host, pid and the backend's device.
  Json deviceLines(Bootstrap& boot, Backend& backend) {
    Json info = backend.info();
    Json mine = {{"rank", boot.rank()},
                 {"host", hostName()},
                 {"pid", static_cast<int>(getpid())},
                 {"device", info.contains("device") ? std::to_string(info["device"].get<int>()) : std::string("-")},
                 {"pci_bus_id", info.value("pci_bus_id", std::string("host"))},
                 {"device_name", info.value("device_name", std::string("host memory"))}};
    Json all = Json::array();
    for (const std::string& s : boot.allGather(mine.dump())) all.push_back(Json::parse(s));
    return all;
  }

  std::string collective_;
  std::string minBytes_ = "8", maxBytes_ = "32M", stepBytes_ = "1M";
  int stepFactor_ = 2;
  std::string dtype_ = "float", op_ = "sum";
  int perIter_ = 1;
  std::string backend_ = "mpi";
  std::string ncclJson_;  ///< -J: nccl-tests' JSON layout, beside the Preflight document
  CommonOptions common_;
  collectives::SweepOptions opts_;
};

PF_REGISTER_COMMAND(SweepCommand, "sweep");

}  // namespace
}  // namespace pf::cli

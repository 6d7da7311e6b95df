// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight scale`: the data-parallel training benchmark (scaling/). Each world size in --ranks runs as a
// sub-communicator of the first N launched ranks inside one launch (see scaling/scale_runner.hpp for why),
// so `--local-ranks` must be at least the largest N. With --from SWEEP.json[,SWEEP2.json] the two-level model
// (scaling/fabric_model.hpp) is fitted, the measured sizes are predicted from the smallest (the validation),
// plus any --predict allocations (scaling/capacity_plan.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "blas_loader.hpp"
#include "capacity_plan.hpp"
#include "command.hpp"
#include "common_options.hpp"
#include "cuda_runner.hpp"
#include "launch.hpp"
#include "pf/environment.hpp"
#include "pf/error.hpp"
#include "pf/progress.hpp"
#include "pf/report_io.hpp"
#include "pf/timer.hpp"
#include "pf/verdict.hpp"
#include "pytorch_runner.hpp"
#include "scale_runner.hpp"
#include "sweep_fit.hpp"
#include "sweep_probe_match.hpp"

namespace pf::cli {
namespace {

class ScaleCommand final : public Command {
 public:
  std::string summary() const override {
    return "data-parallel training benchmark: efficiency per world size, exposed communication, predictions";
  }

  void setup(CLI::App& app) override {
    app.add_option("--ranks", ranks_, "world sizes to measure (comma list), each on the first N ranks")
        ->delimiter(',')
        ->capture_default_str();
    app.add_option("--reps", opt_.reps, "repetitions per world size")->capture_default_str();
    app.add_option("--steps", opt_.steps, "timed steps per repetition")->capture_default_str();
    app.add_option("--warmup", opt_.warmup, "untimed steps per repetition")->capture_default_str();
    app.add_option("--batch", opt_.trainer.batchPerRank, "samples per rank per step")->capture_default_str();
    app.add_flag("--strong", opt_.strong, "strong scaling: fixed global batch = --batch x smallest N");
    app.add_option("--input", opt_.trainer.model.input, "input features")->capture_default_str();
    app.add_option("--width", opt_.trainer.model.width, "hidden width")->capture_default_str();
    app.add_option("--depth", opt_.trainer.model.depth, "linear layers")->capture_default_str();
    app.add_option("--out-features", opt_.trainer.model.output, "outputs per sample (the last layer's width)")
        ->capture_default_str();
    app.add_option("--bucket-cap-mb", bucketMb_, "gradient bucket cap in MiB (PyTorch DDP's default)")
        ->capture_default_str();
    app.add_option("--optimizer", opt_.trainer.optimizer.kind, "sgd (with momentum) or adam")->capture_default_str();
    app.add_option("--lr", opt_.trainer.optimizer.lr, "learning rate")->capture_default_str();
    // For tests of the equality proof only, hence hidden: one rank's gradient is made wrong once.
    app.add_option("--plant-gradient-error", plant_, "RANK,STEP: add 1 to a gradient of RANK at STEP (tests)")
        ->expected(2)
        ->group("");
    app.add_option("--device", device_, "cpu (OpenBLAS) or cuda (cuBLAS + NCCL, one GPU per rank)")
        ->check(CLI::IsMember({"cpu", "cuda"}))
        ->capture_default_str();
    app.add_option("--framework", framework_, "native (this trainer, MPI) or pytorch (DDP/gloo under torchrun)")
        ->check(CLI::IsMember({"native", "pytorch"}))
        ->capture_default_str();
    app.add_option("--blas-threads", blasThreads_, "OpenBLAS threads per rank (0 = cores / local ranks)")
        ->capture_default_str();
    app.add_option("--from", from_,
                   "all_reduce sweep documents for the model (preflight sweep all_reduce --json): one within a node, "
                   "one across two or more nodes")
        ->delimiter(',');
    app.add_option("--predict", predict_,
                   "allocations to predict, NODESxRANKS_PER_NODE or a rank count (e.g. 8x16,64; needs --from)")
        ->delimiter(',');
    app.add_option("--nics", nics_,
                   "a `preflight probe --json` document from a node of the cluster: its NICs' summed line rate is "
                   "the ceiling for the inter-node fit, or the inter-node level itself without an inter-node sweep "
                   "(predictions across nodes then lower bounds); where it shows NVLS or CollNet on every node, "
                   "the model adds them (modelled, marked in_switch); needs --from");
    app.add_option("--inter-bw-factor", interBwFactor_,
                   "what-if: the inter-node bandwidth as a multiple of the measured one (0.25 = 4x slower links)")
        ->capture_default_str();
    common_.addOutputs(app);
    common_.addStrict(app);
    common_.addLocalRanks(app);
    common_.addTimeout(app);
    app.footer(
        "Weak scaling by default (fixed per-rank batch). E(N) = throughput(N) / (N x throughput(1)), with its\n"
        "spread over repetitions. Exit 1 when parameters differ across ranks or from the single-rank reference.\n"
        "OpenBLAS gets cores / local ranks threads per rank at every size (--blas-threads overrides).\n\n"
        "Examples:\n"
        "  preflight scale --local-ranks 2 --ranks 1,2\n"
        "  preflight sweep all_reduce --local-ranks 2 -b 1K -e 16M -f 4 --json sweep.json\n"
        "  preflight scale --local-ranks 2 --ranks 1,2 --from sweep.json --predict 8,64 --json scale.json\n"
        "  preflight scale --ranks 2,4 --from node.json,2nodes.json --predict 8x2,64x8   (under mpirun on 2 nodes)\n"
        "  preflight scale --local-ranks 8 --ranks 1,8 --from node.json --nics probe.json --predict 16x8\n"
        "  preflight scale --framework pytorch --ranks 1,2 --json ddp.json   (torchrun starts the ranks)");
  }

  int run(const Invocation& inv) override {
    validate();
    // No GPU: exit 2 before launching ranks. Native ranks that a launcher started check inside the job instead, where
    // they agree before any refuses (requireGpuPerRank): one refusing here, before MPI starts, gets the job killed by
    // mpirun. PyTorch's ranks have no such check later: they keep this one.
    const bool launched = detectLauncher(Environment::fromProcess()).spawned;
    if (device_ == "cuda" && (framework_ == "pytorch" || !launched)) scaling::requireCudaDevice();
    common_.validateOutputs();
    if (framework_ == "pytorch")
      return runOnRanks("scale", inv, common_,
                        [&](Bootstrap& boot, const LauncherEnv& launcher) { return runPytorch(boot, launcher, inv); });
    FabricModel model;
    if (!from_.empty()) {  // a bad file: exit 2 now, before any rank starts
      std::vector<scaling::LevelFit> levels;
      for (const std::string& f : from_) levels.push_back(scaling::levelFromSweep(readReport(f), f));
      model = scaling::fabricModelFromLevels(std::move(levels));
      if (!nics_.empty()) {
        const RunReport probe = readReport(nics_);
        scaling::addNics(model, scaling::nicsFromProbe(probe, nics_));
        model.inSwitch = scaling::inSwitchFromProbe(probe, nics_);
        for (const std::string& f : from_)
          if (nicsMismatch_.empty()) nicsMismatch_ = scaling::sweepProbeMismatch(readReport(f), f, probe, nics_);
      }
      if (interBwFactor_ != 1.0 && !model.inter)
        throw UsageError(
            "--inter-bw-factor needs an inter-node level: a sweep across two or more nodes in --from, or --nics");
      model.interBandwidthFactor = interBwFactor_;
    }
    // The trainer's OpenBLAS is opened at run time (scaling/blas_loader.hpp): a node without it is told so here, in one
    // line, rather than by every rank it would launch.
    if (!launched) scaling::openblas();
    return runOnRanks("scale", inv, common_, [&](Bootstrap& boot, const LauncherEnv& launcher) {
      return runNative(boot, launcher, model, inv);
    });
  }

 private:
  using FabricModel = scaling::FabricModel;

  // NCCL refuses two ranks of one communicator on one GPU, but only when the first multi-rank size starts, after
  // the 1-rank size has run and with no report written: say it before anything runs (exit 2 on every rank).
  // NCCL_HOSTID set (a test that gives each rank its own host id, docs/developing.md) is left to NCCL to judge.
  // Each rank checks its own node (CUDA answers, a GPU per rank), and all agree before any refuses: a refusal on
  // some ranks only (a node whose CUDA sees 7 GPUs for 8 ranks, next to nodes that are fine) would leave those in
  // MPI_Finalize and the others in the next collective, for ever. Agreeing costs one allgather and lets every rank
  // exit 2 with one message naming the ranks and hosts at fault, which an abort of the job (exit 3, MPI's own
  // noise) would not.
  static void requireGpuPerRank(Bootstrap& boot, const LauncherEnv& launcher) {
    std::string problem;
    try {
      const int gpus = scaling::requireCudaDevice();
      if (launcher.local_world_size > gpus && !std::getenv("NCCL_HOSTID"))
        problem = fmt::format(
            "{} ranks on {} share {} GPU(s), and NCCL cannot put two ranks of one communicator on one GPU: start at "
            "most {} rank(s) per node (srun --ntasks-per-node, mpirun -npernode, --local-ranks)",
            launcher.local_world_size, hostName(), gpus, gpus);
    } catch (const UsageError& e) {
      problem = e.what();
    }
    const std::vector<std::string> all = boot.allGather(problem);
    std::vector<std::pair<std::string, std::vector<int>>> problems;  // each problem with its ranks, first seen first
    for (int r = 0; r < static_cast<int>(all.size()); ++r) {
      const std::string& p = all[static_cast<size_t>(r)];
      if (p.empty()) continue;
      auto it = std::find_if(problems.begin(), problems.end(), [&](const auto& q) { return q.first == p; });
      if (it == problems.end()) it = problems.insert(problems.end(), {p, {}});
      it->second.push_back(r);
    }
    if (problems.empty()) return;
    if (problems.size() == 1 && problems[0].second.size() == all.size())
      throw UsageError("--device cuda: " + problems[0].first);  // every rank alike
    std::vector<std::string> parts;
    int bad = 0;
    for (const auto& [p, ranks] : problems) {
      parts.push_back(fmt::format("rank{} {}: {}", ranks.size() > 1 ? "s" : "", fmt::join(ranks, ","), p));
      bad += static_cast<int>(ranks.size());
    }
    throw UsageError(
        fmt::format("--device cuda: {} of {} ranks cannot use a GPU; {}", bad, all.size(), fmt::join(parts, "; ")));
  }

  int runNative(Bootstrap& boot, const LauncherEnv& launcher, const FabricModel& model, const Invocation& inv) {
    const int largest = *std::max_element(ranks_.begin(), ranks_.end());
    if (boot.size() < largest)
      throw UsageError(fmt::format("--ranks asks for {} ranks but {} were launched: raise --local-ranks (or -np)",
                                   largest, boot.size()));
    if (device_ == "cuda") requireGpuPerRank(boot, launcher);
    blasThreads_ = scaling::useBlasThreads(blasThreads_, launcher.local_world_size);  // same at every N
    RunReport report;
    report.context = gatherContext("scale", inv, boot, launcher);
    const std::vector<std::string> hosts = boot.allGather(hostName());  // the nodes each size spans
    // Progress on stderr: the time left is the time so far per unit of work done, times the work left, with
    // work counted as scaling::worldSizeWork counts it (samples trained per rank, the references included).
    ProgressLine progress("scale", common_.view.quiet);
    double total = 0, done = 0;
    for (int n : ranks_) total += scaling::worldSizeWork(opt_, n);
    opt_.onWork = [&](const std::string& what, double work) {
      done += work;
      if (done < total) progress.update(what + " done", secondsLeftByShare(progress.elapsed(), done, total - done));
    };
    Json rows = Json::array();
    for (int n : ranks_) {
      Json row = device_ == "cuda" ? scaling::runCudaWorldSize(opt_, n, boot, launcher.local_rank)
                                   : scaling::runWorldSize(opt_, n);
      row["nodes"] = std::set<std::string>(hosts.begin(), hosts.begin() + n).size();
      if (boot.rank() == 0) rows.push_back(row);  // every rank has left the size's closing barrier
    }
    opt_.onWork = {};  // it refers to this function's locals
    if (boot.rank() != 0) return 0;
    scaling::addEfficiency(rows);
    return finish(report, summarize(rows, model));
  }

  // --framework pytorch: torchrun starts every world size's ranks, so this process stays alone (no mpirun).
  int runPytorch(Bootstrap& boot, const LauncherEnv& launcher, const Invocation& inv) {
    const std::string python = scaling::findTorchPython();  // no torch: exit 2, naming what was tried
    const std::string script = scaling::findDdpScript();
    if (launcher.multiRank())
      throw UsageError("--framework pytorch runs torchrun itself: start preflight once, without mpirun or srun");
    // Threads per rank as the native trainer: cores / the largest world size, the same at every N.
    blasThreads_ = scaling::blasThreadsPerRank(blasThreads_, *std::max_element(ranks_.begin(), ranks_.end()));
    RunReport report;
    report.context = gatherContext("scale", inv, boot, launcher);
    Json rows = Json::array();
    // torchrun runs each world size whole, so progress comes per world size, weighed as in runNative.
    ProgressLine progress("scale", common_.view.quiet);
    double total = 0, done = 0;
    for (int n : ranks_) total += scaling::worldSizeWork(opt_, n);
    for (int n : ranks_) {
      rows.push_back(scaling::runPytorchWorldSize(opt_, n, python, script, blasThreads_, device_));
      done += scaling::worldSizeWork(opt_, n);
      if (done < total)
        progress.update(fmt::format("world size {} done", n),
                        secondsLeftByShare(progress.elapsed(), done, total - done));
    }
    scaling::addEfficiency(rows);
    Result r = summarize(rows, FabricModel{});
    r.params["python"] = python;
    r.params["script"] = script;
    if (!rows.empty() && rows[0].contains("torch")) r.params["torch"] = rows[0]["torch"];
    return finish(report, std::move(r));
  }

  /// The verdict and every output; returns the exit code. Rank 0 only.
  int finish(RunReport& report, Result r) {
    reports::Outputs out = common_.makeOutputs();
    out.begin(report.context);
    report.results.push_back(std::move(r));
    report.context.end_time = utcNowIso8601();
    applyVerdict(report, common_.strict);
    out.result(report.results.back());
    out.end(report);
    return report.exit_code;
  }

  void validate() {
    if (ranks_.empty() || *std::min_element(ranks_.begin(), ranks_.end()) < 1)
      throw UsageError("--ranks needs positive world sizes, e.g. --ranks 1,2,4");
    if (opt_.reps < 1 || opt_.steps < 1 || opt_.warmup < 0)
      throw UsageError("--reps and --steps must be >= 1 and --warmup >= 0");
    if (opt_.trainer.batchPerRank < 1) throw UsageError("--batch must be >= 1");
    if (!(bucketMb_ > 0 && bucketMb_ <= 1 << 20))  // nan and inf too: the cap becomes a byte count
      throw UsageError("--bucket-cap-mb must be above 0 and at most 1048576 (1 TiB), e.g. 25");
    if (opt_.trainer.optimizer.kind != "sgd" && opt_.trainer.optimizer.kind != "adam")
      throw UsageError(fmt::format("--optimizer '{}': use sgd or adam", opt_.trainer.optimizer.kind));
    if (opt_.trainer.model.depth < 1 || opt_.trainer.model.width < 1 || opt_.trainer.model.input < 1 ||
        opt_.trainer.model.output < 1)
      throw UsageError("--input, --width, --depth and --out-features must be >= 1");
    if (framework_ == "pytorch") {
      if (common_.localRanks > 1)
        throw UsageError("--framework pytorch: torchrun starts the ranks; drop --local-ranks");
      if (!from_.empty() || !predict_.empty() || !nics_.empty())
        throw UsageError("--from/--predict model the native trainer; use them with --framework native");
    }
    if (!(interBwFactor_ > 0 && interBwFactor_ <= 1e6))
      throw UsageError("--inter-bw-factor must be > 0, e.g. 0.25 for links 4x slower");
    for (const std::string& a : predict_) scaling::parseAllocation(a, 1);  // a typo: exit 2 before any rank starts
    if (!predict_.empty() && from_.empty())
      throw UsageError("--predict needs --from SWEEP.json (an all_reduce sweep to fit the model to)");
    if (!nics_.empty() && from_.empty())
      throw UsageError(
          "--nics needs --from SWEEP.json: the NICs bound or stand in for the inter-node level of a model");
    if (common_.localRanks > 1 && common_.localRanks < *std::max_element(ranks_.begin(), ranks_.end()))
      throw UsageError("--local-ranks must be at least the largest --ranks value");
    if (opt_.strong)
      for (int n : ranks_)
        if ((opt_.trainer.batchPerRank * *std::min_element(ranks_.begin(), ranks_.end())) % n)
          throw UsageError(fmt::format("--strong: the global batch must divide evenly over {} ranks", n));
    opt_.trainer.bucketCapBytes = static_cast<std::size_t>(bucketMb_ * 1024 * 1024);
    if (plant_.size() == 2) opt_.trainer.plant = {plant_[0], plant_[1], 1.0f};
  }

  Result summarize(Json& rows, const FabricModel& model) {
    Result r;
    r.key = opt_.strong ? "scale.strong" : "scale.weak";
    r.kind = Kind::kScale;
    r.params = Json{{"ranks", ranks_},
                    {"reps", opt_.reps},
                    {"steps", opt_.steps},
                    {"warmup", opt_.warmup},
                    {"batch_per_rank", opt_.trainer.batchPerRank},
                    {"strong", opt_.strong},
                    {"input", opt_.trainer.model.input},
                    {"width", opt_.trainer.model.width},
                    {"depth", opt_.trainer.model.depth},
                    {"output", opt_.trainer.model.output},
                    {"parameters", opt_.trainer.model.paramCount()},
                    {"bucket_cap_mb", bucketMb_},
                    {"optimizer", opt_.trainer.optimizer.kind},
                    {"framework", framework_},
                    {"blas", framework_ == "pytorch" ? "torch"
                             : device_ == "cuda"     ? "cublas"
                                                     : "openblas"},
                    {"blas_threads", blasThreads_},
                    {"device", device_}};
    bool equal = true;
    std::string which;  // which of the two checks failed, with its figures, for the first size that failed
    for (const auto& row : rows) {
      const bool ranksAgree = row.value("ranks_identical", false), refAgrees = row.value("equal_to_single_rank", false);
      if (equal && !ranksAgree)
        which = fmt::format("at {} ranks the ranks' parameters differ from each other", row["ranks"].get<int>());
      else if (equal && !refAgrees)
        which = fmt::format(
            "at {} ranks the parameters differ from the single-rank reference by {:.3g}, beyond the bound {:.3g}{}",
            row["ranks"].get<int>(), row.value("max_param_diff_vs_single_rank", 0.0), row.value("equality_bound", 0.0),
            row.contains("reference_rounding_diff")
                ? fmt::format(" ({:g} x float32 rounding: {:.3g})", opt_.equalityFactor,
                              row.value("reference_rounding_diff", 0.0))
                : std::string());
      equal = equal && ranksAgree && refAgrees;
    }
    r.rows = rows;
    const auto& largest = rows.back();
    r.metrics["efficiency_largest"] = largest["efficiency"]["median"];
    r.metrics["parameters_equal"] = equal;
    r.status = equal ? Status::kPass : Status::kFail;
    r.message = fmt::format("E({}) = {:.3f} (min {:.3f}, max {:.3f}); parameters {} across ranks and vs 1 rank",
                            largest["ranks"].get<int>(), largest["efficiency"]["median"].get<double>(),
                            largest["efficiency"]["min"].get<double>(), largest["efficiency"]["max"].get<double>(),
                            equal ? "identical" : "DIFFER");
    if (!equal) {
      r.message += ": " + which;
      r.remedy = "the data-parallel run is wrong: check the MPI library (all-reduce results) on these ranks";
    }
    if (!from_.empty()) scaling::addCapacityPlan(r, rows, opt_.trainer, model, predict_);
    if (!nicsMismatch_.empty()) {
      r.message += "; " + nicsMismatch_;
      if (r.status == Status::kPass) {
        r.status = Status::kWarn;
        r.remedy = "sweep and train on the nodes --nics describes (GPU buffers through NCCL), or leave --nics out";
      }
    }
    return r;
  }

  std::string nicsMismatch_;  ///< a CPU sweep in --from beside a GPU node in --nics (sweep_probe_match.hpp)
  std::vector<int> ranks_{1, 2};
  double bucketMb_ = 25;
  std::vector<std::string> from_, predict_;
  std::string nics_;
  double interBwFactor_ = 1.0;
  std::string device_ = "cpu";
  int blasThreads_ = 0;
  std::string framework_ = "native";
  std::vector<int> plant_;
  scaling::ScaleOptions opt_;
  CommonOptions common_;
};

}  // namespace

PF_REGISTER_COMMAND(ScaleCommand, "scale");

}  // namespace pf::cli

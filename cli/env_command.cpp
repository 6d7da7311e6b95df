// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight env`: which launcher started us, normalised (rank, local rank, world size, local world size,
// node rank, node count, master address and port), checked against the node, and optionally exported as the
// variables torch.distributed expects. Runs in each process on its own: no MPI initialisation, so it can sit in
// a job script before the training program (eval "$(preflight env --export torch)").
#include <fmt/format.h>

#include <iostream>

#include "command.hpp"
#include "common_options.hpp"
#include "launch_env/env_checks.hpp"
#include "launch_env/job_env.hpp"
#include "pf/error.hpp"
#include "pf/report_io.hpp"
#include "pf/timer.hpp"
#include "pf/verdict.hpp"
#include "probe_util.hpp"

namespace pf::cli {
namespace {

class EnvCommand final : public Command {
 public:
  std::string summary() const override {
    return "show the launcher environment normalised (rank, node, master) and check it against the node";
  }

  void setup(CLI::App& app) override {
    app.add_option("--export", exportFormat_, "print shell `export` lines for a framework instead: torch")
        ->check(CLI::IsMember({"torch"}));
    common_.addOutputs(app);
    common_.addEnvFile(app, "the launcher's variables");
    app.add_option("--sysfs-root", root_, "count GPUs in a captured tree rooted at DIR (implies --no-network)");
    auto* off = app.add_flag("--no-network", noNetwork_, "do not resolve the master or test its port");
    app.add_flag("--network", network_,
                 "test the master even when its address came from --env-file or the tree is --sysfs-root's")
        ->excludes(off);
    common_.addStrict(app);
    app.footer(
        "Launchers: Open MPI, PMIx, MPICH/Hydra, Slurm, torchrun, Azure ML, Vertex AI (CLUSTER_SPEC), TF_CONFIG,\n"
        "SageMaker (SM_HOSTS). Checks: ranks per node vs GPUs, local rank < GPUs, the OMPI_COMM_WORLD_NODE_RANK\n"
        "pitfall, master address resolvable, master port free (on the master) or reachable. An address read from\n"
        "--env-file (another cluster's, perhaps) is never contacted unless --network says so. Exit code: 0 pass,\n"
        "1 a check failed (warnings only with --strict), 2 malformed launcher variables (e.g. CLUSTER_SPEC JSON).\n\n"
        "Examples:\n"
        "  mpirun -np 2 preflight env\n"
        "  srun -N 2 --ntasks-per-node=8 preflight env --json env.json\n"
        "  eval \"$(preflight env --export torch)\" && python train.py\n"
        "  preflight env --env-file captured.env       # no connection to the file's MASTER_ADDR");
  }

  int run(const Invocation& inv) override {
    common_.validateOutputs();
    Environment env = common_.environment();
    probes::SystemView sys(root_.empty() ? "/" : root_, env, root_.empty());
    probes::JobEnv job = probes::detectJobEnv(env);
    if (exportFormat_ == "torch") {
      std::cout << probes::exportTorch(job);
      return 0;
    }
    probes::EnvCheckOptions opt;
    // Addresses that came from a file (a captured environment, perhaps of another cluster) are not contacted
    // unless asked: a check run from a laptop must not probe someone's private network.
    opt.network = network_ || (!noNetwork_ && root_.empty() && common_.envFile.empty());
    if (noNetwork_)
      opt.networkOff = "--no-network";
    else if (!root_.empty())
      opt.networkOff = "--sysfs-root: a captured tree; add --network to test it from here";
    else if (!common_.envFile.empty())
      opt.networkOff = "the address came from --env-file; add --network to contact it";
    RunReport report;
    report.context.command = "env";
    report.context.version = version();
    for (int i = 0; i < *inv.argc; ++i) report.context.argv.emplace_back((*inv.argv)[i]);
    report.context.hostname = probes::nodeName(sys);
    report.context.start_time = utcNowIso8601();
    report.context.world_size = job.process.world_size;
    report.context.node_count = job.nodeCount.value_or(1);
    report.context.launcher = probes::toJson(job);
    report.context.launcher["launcher"] = job.process.launcher;  // the one that started this process
    reports::Outputs out = common_.makeOutputs();
    out.begin(report.context);
    report.results = probes::checkJobEnv(job, sys, opt);
    report.context.end_time = utcNowIso8601();
    applyVerdict(report, common_.strict);
    for (const Result& r : report.results) out.result(r);
    out.end(report);
    return report.exit_code;
  }

 private:
  std::string exportFormat_, root_;
  bool noNetwork_ = false, network_ = false;
  CommonOptions common_;
};
PF_REGISTER_COMMAND(EnvCommand, "env");

}  // namespace
}  // namespace pf::cli

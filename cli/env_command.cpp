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
#include "launch_env/env_checks.hpp"
#include "launch_env/job_env.hpp"
#include "pf/error.hpp"
#include "pf/report_io.hpp"
#include "pf/timer.hpp"
#include "probe_util.hpp"

namespace pf::cli {
namespace {

class EnvCommand final : public Command {
 public:
  std::string name() const override { return "env"; }
  std::string summary() const override {
    return "show the launcher environment normalised (rank, node, master) and check it against the node";
  }

  void setup(CLI::App& app) override {
    app.add_option("--export", exportFormat_, "print shell `export` lines for a framework instead: torch")
        ->check(CLI::IsMember({"torch"}));
    app.add_option("--json", jsonPath_, "write the result document to FILE ('-' = stdout)");
    app.add_option("--env-file", envFile_, "read the environment from FILE (KEY=VALUE lines) instead of the process");
    app.add_option("--sysfs-root", root_, "count GPUs in a captured tree rooted at DIR (implies --no-network)");
    app.add_flag("--no-network", noNetwork_, "do not resolve the master or test its port");
    app.add_flag("--strict", strict_, "exit 1 on warnings too");
    app.footer(
        "Launchers: Open MPI, PMIx, MPICH/Hydra, Slurm, torchrun, Azure ML, Vertex AI (CLUSTER_SPEC), TF_CONFIG,\n"
        "SageMaker (SM_HOSTS). Checks: ranks per node vs GPUs, local rank < GPUs, the OMPI_COMM_WORLD_NODE_RANK\n"
        "pitfall, master address resolvable, master port free (on the master) or reachable. Exit code: 0 pass,\n"
        "1 a check failed (warnings only with --strict), 2 malformed launcher variables (e.g. CLUSTER_SPEC JSON).\n\n"
        "Examples:\n"
        "  mpirun -np 2 preflight env\n"
        "  srun -N 2 --ntasks-per-node=8 preflight env --json env.json\n"
        "  eval \"$(preflight env --export torch)\" && python train.py\n"
        "  preflight env --env-file captured.env --no-network");
  }

  int run(const Invocation& inv) override {
    checkWritable(jsonPath_);
    Environment env = envFile_.empty() ? Environment::fromProcess() : Environment::fromFile(envFile_);
    probes::SystemView sys(root_.empty() ? "/" : root_, env, root_.empty());
    probes::JobEnv job = probes::detectJobEnv(env);
    if (exportFormat_ == "torch") {
      std::cout << probes::exportTorch(job);
      return 0;
    }
    probes::EnvCheckOptions opt;
    opt.network = !noNetwork_ && root_.empty();
    RunReport report;
    report.context.command = "env";
    report.context.version = version();
    for (int i = 0; i < *inv.argc; ++i) report.context.argv.emplace_back((*inv.argv)[i]);
    report.context.hostname = probes::nodeName(sys);
    report.context.start_time = utcNowIso8601();
    report.context.world_size = job.process.world_size;
    report.context.node_count = job.nodeCount.value_or(1);
    report.context.launcher = probes::toJson(job);
    report.results = probes::checkJobEnv(job, sys, opt);
    report.context.end_time = utcNowIso8601();
    bool fail = false, warn = false;
    for (const auto& r : report.results) {
      fail |= r.status == Status::kFail || r.status == Status::kError;
      warn |= r.status == Status::kWarn;
    }
    report.verdict = fail ? Status::kFail : (warn && strict_) ? Status::kWarn : Status::kPass;
    report.exit_code = fail || (warn && strict_) ? static_cast<int>(ExitCode::kCheckFailed) : 0;
    if (!jsonPath_.empty()) writeReport(report, jsonPath_);
    if (jsonPath_ != "-") std::cout << render(job, report);
    return report.exit_code;
  }

 private:
  static std::string render(const probes::JobEnv& job, const RunReport& report) {
    Json j = probes::toJson(job);
    std::string out;
    for (const char* f : {"rank", "world_size", "local_rank", "local_world_size", "node_rank", "node_count",
                          "master_addr", "master_port"}) {
      std::string from = j["sources"].value(f, "");
      const bool processField =
          std::string(f).find("rank") != std::string::npos || std::string(f).find("world") != std::string::npos;
      if (from.empty() && processField && job.process.launcher != "none") from = job.process.launcher;
      out += fmt::format("  {:<17} {:<20} {}\n", f,
                         j[f].is_null()     ? "-"
                         : j[f].is_string() ? j[f].get<std::string>()
                                            : j[f].dump(),
                         from.empty() ? "" : "(" + from + ")");
    }
    std::string head = fmt::format("launcher: {}\n",
                                   job.launchers.empty() ? "none" : fmt::format("{}", fmt::join(job.launchers, " + ")));
    for (const auto& n : job.notes) out += "  note: " + n + "\n";
    for (const auto& r : report.results) {
      if (r.key == "env.launcher") continue;
      out += fmt::format("{:<7} {:<10} {}\n", toString(r.status), r.key.substr(4), r.message);
      if (!r.remedy.empty()) out += fmt::format("        fix: {}\n", r.remedy);
    }
    return head + out;
  }

  std::string exportFormat_, jsonPath_, envFile_, root_;
  bool noNetwork_ = false, strict_ = false;
};

PF_REGISTER_COMMAND(EnvCommand, "env");

}  // namespace
}  // namespace pf::cli

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "launch.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "local_job.hpp"
#include "pf/bootstrap_factory.hpp"
#include "pf/error.hpp"
#include "pf/log.hpp"
#include "pf/timer.hpp"
#include "run_guards.hpp"

namespace pf::cli {
namespace {

// What every document says of the run before any rank has measured: the command line as given, where and when.
Context runContext(const std::string& command, const Invocation& inv, int worldSize) {
  Context c;
  c.version = version();
  c.command = command;
  for (int i = 0; i < *inv.argc; ++i) c.argv.emplace_back((*inv.argv)[i]);
  c.hostname = hostName();
  c.start_time = utcNowIso8601();
  c.world_size = worldSize;
  return c;
}

// No rank got through MPI's start, so none wrote a document: the launcher writes it, with no results, verdict
// error and exit 3, so a script that reads --json sees why instead of no file (or an earlier run's).
std::vector<std::string> writeStartupDocument(const CommonOptions& common, const std::string& command,
                                              const Invocation& inv, const LauncherEnv& env, const JobEnd& end) {
  try {
    std::vector<reports::OutputSpec> specs;
    for (const std::string& file : common.documentFiles()) specs.push_back({"json", file});
    if (specs.empty()) return {};
    reports::Outputs outputs(specs, common.view);
    Context c = runContext(command, inv, common.localRanks);
    c.launcher = toJson(env);
    c.launcher["bootstrap"] = "none: MPI did not start";
    outputs.begin(c);
    return outputs.partialWriter()(end.why, static_cast<ExitCode>(end.code));
  } catch (const Error& e) {  // the process is ending with exit 3 either way
    std::cerr << fmt::format("preflight {}: cannot write the document: {}", command, e.what()) << std::endl;
    return {};
  }
}

}  // namespace

std::optional<int> relaunchLocally(const CommonOptions& common, const std::string& command, const Invocation& inv,
                                   const LauncherEnv& env) {
  const int localRanks = common.localRanks;
  if (localRanks <= 1) return std::nullopt;
  if (env.spawned) {
    // Already launched: honour the launcher's world instead of nesting mpirun inside it.
    if (env.world_size != localRanks)
      PF_LOG_WARN("launch", "--local-ranks {} ignored: {} already started {} ranks", localRanks, env.launcher,
                  env.world_size);
    return std::nullopt;
  }
  if (!haveMpi())
    throw UsageError(
        "--local-ranks needs MPI, and this preflight was built without it; install Open MPI "
        "(apt-get install openmpi-bin libopenmpi-dev) and rebuild");
  std::vector<std::string> args = {PF_MPIEXEC, "-np", std::to_string(localRanks), "--oversubscribe"};
  // One core per rank while there are enough: --oversubscribe alone leaves ranks unbound, and ranks that
  // migrate between cores pay for it in memory-bound phases (the scale trainer's optimizer step took 1.0-1.3 ms
  // unbound vs 0.61-0.69 ms bound, 2 ranks on this 2-core machine, docs/performance.md). More ranks than cores
  // cannot be bound one per core.
  const bool fits = localRanks <= static_cast<int>(std::thread::hardware_concurrency());
  args.insert(args.end(), {"--bind-to", fits ? "core" : "none"});
  if (geteuid() == 0) args.push_back("--allow-run-as-root");
  // Ranks on a shared machine must yield when idle, or busy-polling neighbours distort every timing.
  args.insert(args.end(), {"--mca", "mpi_yield_when_idle", "1"});
  // When a rank dies or mpirun is interrupted, mpirun sends the others SIGCONT, SIGTERM and SIGKILL, this
  // many seconds apart. Between the last two, rank 0 writes its partial document (SignalGuard): Open MPI's
  // 1 s default left too little room on a loaded machine; each second more is a second more to exit.
  args.insert(args.end(), {"--mca", "odls_base_sigkill_timeout", "2"});
  char self[4096] = {};
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  args.push_back(n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string((*inv.argv)[0]));
  // The arguments as given, --local-ranks too: a launched rank ignores it (it sees the launcher's world of the
  // same size), and the document's command line, taken from the ranks, then reruns the run as it was typed.
  for (int i = 1; i < *inv.argc; ++i) args.push_back((*inv.argv)[i]);
  PF_LOG_INFO("launch", "relaunching through {} with {} ranks", PF_MPIEXEC, localRanks);
  const std::vector<DocumentStamp> stamps = stampDocuments(common.documentFiles());
  const JobEnd end = runLocalJob(args, command, common.timeoutSeconds);
  if (end.startup) {
    const std::vector<std::string> files = writeStartupDocument(common, command, inv, env, end);
    if (!files.empty())
      std::cerr << fmt::format("preflight {}: the document is in {} (marked partial, exit {})", command,
                               fmt::join(files, ", "), end.code)
                << std::endl;
    return end.code;
  }
  // Rank 0 wrote what it saw (mpirun's SIGTERM); the document says what this process returns.
  for (const std::string& file : amendPartialDocuments(stamps, end))
    std::cerr << fmt::format("preflight {}: {}; the document so far is in {} (marked partial, exit {})", command,
                             end.why, file, end.code)
              << std::endl;
  return end.code;
}

std::unique_ptr<Bootstrap> startBootstrap(const Invocation& inv, const LauncherEnv& env) {
  std::unique_ptr<Bootstrap> boot = makeMpiBootstrap(inv.argc, inv.argv);
  if (!boot) boot = makeLocalBootstrap();
  log::setRank(boot->size() > 1 ? boot->rank() : -1);
  // nccl-tests' classic failure: a binary built without (or against another) MPI starts N independent
  // one-rank jobs that all print "Rank 0". Refuse instead of measuring nonsense.
  if (env.spawned && env.world_size != boot->size()) {
    throw UsageError(fmt::format(
        "{} started {} ranks but {} sees a world of {}: this preflight was built against a different MPI than "
        "the launcher's (or without MPI). Compare `ldd $(which preflight) | grep mpi` with `which mpirun`, and "
        "rebuild against the MPI that launches it (or use srun --mpi=pmix with a PMIx-enabled Open MPI)",
        env.launcher, env.world_size, boot->name(), boot->size()));
  }
  return boot;
}

Context gatherContext(const std::string& command, const Invocation& inv, Bootstrap& boot, const LauncherEnv& env) {
  Context c = runContext(command, inv, boot.size());
  std::vector<std::string> hosts = boot.allGather(hostName());
  c.node_count = static_cast<int>(std::set<std::string>(hosts.begin(), hosts.end()).size());
  c.launcher = toJson(env);
  c.launcher["bootstrap"] = boot.name();
  return c;
}

int runOnRanks(const std::string& command, const Invocation& inv, const CommonOptions& common,
               const std::function<int(Bootstrap&, const LauncherEnv&)>& body) {
  Environment env = Environment::fromProcess();
  LauncherEnv launcher = detectLauncher(env);
  if (std::optional<int> code = relaunchLocally(common, command, inv, launcher)) return *code;
  if (launcher.spawned) tieRankToParent();
  std::unique_ptr<Bootstrap> boot;  // outlives the watchdog, which may call abortAll on it
  Watchdog watchdog(common.timeoutSeconds, command, common, launcher);
  boot = startBootstrap(inv, launcher);
  markRankStarted();
  watchdog.attach(*boot);
  SignalGuard signals(command, boot->rank(), common);
  try {
    return body(*boot, launcher);
  } catch (const UsageError&) {
    throw;  // every rank sees the same bad input and exits 2 on its own
  } catch (const Error& e) {
    // One rank failed at run time; the others may be waiting in a collective: take the job down with it. What
    // rank 0 measured so far is kept, marked partial with this error (a peer that died shows up here too).
    const std::vector<std::string> files = common.writePartial(e.what(), e.code());
    std::cerr << fmt::format("preflight {}: rank {} on {}: {}{}", command, boot->rank(), hostName(), e.what(),
                             files.empty() ? ""
                                           : fmt::format("; the document so far is in {} (marked partial)",
                                                         fmt::join(files, ", ")))
              << std::endl;
    boot->abortAll(static_cast<int>(e.code()));
    throw;
  }
}

}  // namespace pf::cli

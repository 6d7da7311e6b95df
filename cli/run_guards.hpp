// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What ends a rank from outside while its command runs, and what the rank does first: write the documents so
// far, marked partial (CommonOptions::writePartial), and say which rank on which host stopped, and why.
//   - SignalGuard: SIGINT or SIGTERM (mpirun sends SIGTERM to every rank when one dies or it is itself
//     stopped); the rank exits 128 + the signal.
//   - Watchdog: --timeout. A collective that hangs (a dead or stopped peer, a wedged NIC) cannot be
//     interrupted from the thread that called it, so this thread ends the job through Bootstrap::abortAll with
//     exit code 4, naming the ranks of this host that are stopped.
// Both run on threads of their own; neither fires once the command has returned.
#pragma once

#include <signal.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common_options.hpp"
#include "pf/bootstrap.hpp"
#include "pf/launcher_env.hpp"

namespace pf::cli {

class SignalGuard {
 public:
  /// Takes SIGINT and SIGTERM until destroyed: a handler wakes a thread of its own, which does the work (a
  /// handler may call almost nothing). Make it after the bootstrap, so that MPI cannot install its own over it.
  /// Nothing is blocked, so a child process (torchrun) still gets the default actions.
  /// @param rank this rank, for the message
  SignalGuard(const std::string& command, int rank, const CommonOptions& common);
  ~SignalGuard();
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

 private:
  void wait(const std::string& command, int rank, const CommonOptions& common);
  int pipe_[2] = {-1, -1};
  struct sigaction oldInt_ = {}, oldTerm_ = {};
  std::thread thread_;
};

class Watchdog {
 public:
  /// Made before the bootstrap, whose start (MPI_Init, a PMIx fence) can hang too: until attach(), this rank
  /// ends alone (exit 4) and its launcher takes the others down.
  /// @param seconds 0: no limit, no thread
  /// @param launcher this rank and the world's size, as the launcher says
  Watchdog(double seconds, const std::string& command, const CommonOptions& common, const LauncherEnv& launcher);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  /// From now on a timeout ends every rank through boot.abortAll.
  void attach(Bootstrap& boot) { boot_ = &boot; }

 private:
  void expire(double seconds, const std::string& command, const CommonOptions& common, const LauncherEnv& launcher);
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::atomic<Bootstrap*> boot_{nullptr};
  std::thread thread_;
};

/// How a stop by `sig` reads, on stderr and in the document: "interrupted (SIGINT)", "terminated (SIGTERM)",
/// "hung up (SIGHUP)". The process then exits 128 + `sig`, the document's exit_code too.
std::string stopReason(int sig);

/// Gives SIGINT, SIGTERM and the crash signals back their default action when a library loaded with us caught
/// them before main (libinfinipath, through libfabric's PSM provider, does: its handler writes a backtrace file
/// into the working directory and calls exit(1), so a stop or a crash read as "a check failed", and exit() from a
/// handler can hang in the static destructors). Ignored signals stay ignored. Call first thing in main.
void restoreDefaultSignals();

/// The ranks of this job on this host, other than this one, that are stopped (SIGSTOP, a debugger): "rank 1
/// (pid 4242)". Read from /proc: siblings of this process (children of the same mpirun, orted or slurmstepd)
/// whose state is T, their rank from the launcher's environment variable.
std::vector<std::string> stoppedPeers();

}  // namespace pf::cli

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// How a command joins its peers: under a launcher (mpirun, srun) it joins the launched world through MPI;
// with `--local-ranks N` and no launcher it relaunches itself through mpirun with N ranks on this machine, so
// a newcomer needs no MPI knowledge.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "command.hpp"
#include "common_options.hpp"
#include "pf/bootstrap.hpp"
#include "pf/launcher_env.hpp"
#include "pf/result.hpp"

namespace pf::cli {

/// When --local-ranks > 1 and no launcher started us, runs
/// `mpirun -np N <this binary> <same arguments without --local-ranks>` to its end (runLocalJob) and returns the
/// exit code for this process, which launched the job and measured nothing itself; a partial document the
/// ranks left is made to agree with that code (amendPartialDocuments).
/// Returns nothing when no relaunch is needed. @throws UsageError without MPI.
std::optional<int> relaunchLocally(const CommonOptions& common, const std::string& command, const Invocation& inv,
                                   const LauncherEnv& env);

/// Starts the bootstrap: MPI when this build has it, else a single local rank.
/// @throws UsageError when the launcher started N ranks but MPI sees a different world (an MPI mismatch, e.g.
/// a binary built against another MPI than the mpirun that launched it).
std::unique_ptr<Bootstrap> startBootstrap(const Invocation& inv, const LauncherEnv& env);

/// The one launch path of every multi-rank command: relaunches under mpirun for --local-ranks, starts the
/// bootstrap, arms --timeout, and runs `body` on each rank. An error on one rank is printed with the rank and
/// host and ends every rank (Bootstrap::abortAll), so a job never hangs on a dead peer.
int runOnRanks(const std::string& command, const Invocation& inv, const CommonOptions& common,
               const std::function<int(Bootstrap&, const LauncherEnv&)>& body);

/// Fills a report's context from the run: version, argv, hosts (gathered: a collective call), launcher.
Context gatherContext(const std::string& command, const Invocation& inv, Bootstrap& boot, const LauncherEnv& env);

}  // namespace pf::cli

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What `preflight check` and `preflight pairs` share on the command line: limits (--thresholds, --baseline,
// --strict), outputs (--format, -o, --json, --junit), --local-ranks, and running on every rank with errors
// reported by rank and host. Everything that can be wrong with the input is checked before any rank starts.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include "command.hpp"
#include "outputs.hpp"
#include "pf/bootstrap.hpp"
#include "pf/launcher_env.hpp"
#include "thresholds.hpp"

namespace pf::cli {

struct GateCli {
  std::string thresholdsPath, baselinePath;
  bool strict = false;
  check::OutputOptions out;
  int localRanks = 1;

  check::Thresholds limits;   ///< filled by load()
  RunReport baseline;         ///< filled by load() when --baseline is given

  /// Declares the shared options. @param baselineHelp what --baseline compares
  void addOptions(CLI::App& app, const std::string& baselineHelp);
  /// Reads the threshold file and the baseline and checks the outputs can be written. @throws UsageError
  void load();
};

/// Starts the ranks (relaunching under mpirun for --local-ranks) and runs `body` on each. An error on one rank
/// is printed with the rank and host, and ends every rank, so a job never hangs on a dead peer.
int runOnRanks(const std::string& command, const Invocation& inv, int localRanks,
               const std::function<int(Bootstrap&, const LauncherEnv&)>& body);

}  // namespace pf::cli

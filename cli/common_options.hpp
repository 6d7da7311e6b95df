// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The options every command shares, each declared once and meaning the same everywhere:
//   --format F     what stdout shows (table: the command's own text; json, csv, prometheus, junit, ...)
//   --output FILE  where --format goes instead of stdout, written atomically
//   --json FILE    the result document ('-' = stdout, replacing the table)
//   --junit FILE   JUnit XML for CI systems
//   --strict       warnings fail (exit 1)
//   --quiet        check and pairs: the verdict line alone
//   --local-ranks N  with no launcher, start N ranks on this machine through mpirun
//   --env-file FILE  take the environment from FILE (KEY=VALUE lines) instead of the process
//   --timeout S    give up after S seconds with exit code 4 (0 = no limit)
// A command declares the groups that apply to it; what it does not declare does not exist for it.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "outputs.hpp"
#include "pf/environment.hpp"

namespace pf::cli {

/// The longest --timeout: 30 days, well below where a deadline in nanoseconds overflows (about 9.2e9 s).
inline constexpr double kMaxTimeoutSeconds = 30.0 * 24 * 3600;

/// The most --local-ranks on this machine: 4 per CPU core (at least 8), since ranks beyond that only
/// time-share the cores; a larger job belongs to a launcher spreading it over nodes.
int maxLocalRanks();

struct CommonOptions {
  std::string format = "table", output = "-", json, junit;
  bool strict = false;
  int localRanks = 1;
  std::string envFile;
  double timeoutSeconds = 0;
  reports::ReportOptions view;  ///< command-specific display switches (--verbose, --iter-columns) set here too

  /// The partial writer of the Outputs made last, for runOnRanks' signal and --timeout threads: they read it
  /// while the command runs, hence the lock.
  struct PartialHook {
    std::mutex mutex;
    reports::Outputs::PartialWriter write;
  };
  std::shared_ptr<PartialHook> partial = std::make_shared<PartialHook>();

  /// --format, --output, --json, --junit.
  void addOutputs(CLI::App& app);
  void addStrict(CLI::App& app);
  void addQuiet(CLI::App& app);
  void addLocalRanks(CLI::App& app);
  /// @param what what the environment is used for, in the help text
  void addEnvFile(CLI::App& app, const std::string& what);
  void addTimeout(CLI::App& app);

  /// Checks formats, paths, --timeout and --local-ranks before anything runs (the paths on rank 0 only: see
  /// writesOutputs).
  /// @throws UsageError naming the option and what to change
  void validateOutputs() const;
  /// The reporters the options ask for, ready for begin(). Rank 0 only. Registers their partial writer.
  reports::Outputs makeOutputs() const;
  /// Writes the documents so far, marked partial (from another thread); returns the files written, none
  /// when no Outputs is alive or a file cannot be written.
  std::vector<std::string> writePartial(const std::string& why, ExitCode code) const;
  /// The files the result document goes to (--json FILE, --format json --output FILE): the ones a partial
  /// document is written to.
  std::vector<std::string> documentFiles() const;
  /// The environment: --env-file's, or the process's.
  Environment environment() const;
};

/// Whether this process writes the output files: rank 0 of a launched job, or a process outside any launcher.
bool writesOutputs();

}  // namespace pf::cli

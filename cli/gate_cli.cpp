// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "gate_cli.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "launch.hpp"
#include "pf/environment.hpp"
#include "pf/error.hpp"
#include "pf/report_io.hpp"
#include "reporter.hpp"

namespace pf::cli {

void GateCli::addOptions(CLI::App& app, const std::string& baselineHelp) {
  app.add_option("--thresholds", thresholdsPath, "TOML threshold file overriding any limit (docs/check.md)");
  app.add_option("--baseline", baselinePath, baselineHelp);
  app.add_flag("--strict", strict, "fail on warnings too");
  app.add_option("--format", out.format,
                 fmt::format("stdout format: summary, {}", fmt::join(reports::reporterFormats(), ", ")))
      ->capture_default_str();
  app.add_option("-o,--output", out.outputPath,
                 "write the --format output to FILE atomically ('-' = stdout), e.g. a node_exporter textfile")
      ->capture_default_str();
  app.add_option("--json", out.jsonPath, "write the result document to FILE ('-' = stdout)");
  app.add_option("--junit", out.junitPath, "write JUnit XML to FILE");
  app.add_option("--local-ranks", localRanks, "with no launcher, start N ranks on this machine through mpirun");
}

void GateCli::load() {
  limits = check::loadThresholds(thresholdsPath);
  if (!baselinePath.empty()) baseline = readReport(baselinePath);
  check::validateOutputs(out);
}

int runOnRanks(const std::string& command, const Invocation& inv, int localRanks,
               const std::function<int(Bootstrap&, const LauncherEnv&)>& body) {
  Environment env = Environment::fromProcess();
  LauncherEnv launcher = detectLauncher(env);
  relaunchLocally(localRanks, inv, launcher);
  auto boot = startBootstrap(inv, launcher);
  try {
    return body(*boot, launcher);
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    std::cerr << fmt::format("preflight {}: rank {} on {}: {}", command, boot->rank(), hostName(), e.what())
              << std::endl;
    boot->abortAll(static_cast<int>(e.code()));
    throw;
  }
}

}  // namespace pf::cli

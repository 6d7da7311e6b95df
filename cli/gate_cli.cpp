// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "gate_cli.hpp"

#include "pf/report_io.hpp"

namespace pf::cli {

void GateCli::addOptions(CLI::App& app, const std::string& baselineHelp) {
  app.add_option("--thresholds", thresholdsPath, "TOML threshold file overriding any limit (docs/check.md)");
  app.add_option("--baseline", baselinePath, baselineHelp);
  common.addStrict(app);
  common.addQuiet(app);
  common.addOutputs(app);
  common.addLocalRanks(app);
  common.addTimeout(app);
}

void GateCli::load() {
  limits = check::loadThresholds(thresholdsPath);
  if (!baselinePath.empty()) baseline = readReport(baselinePath);
  common.validateOutputs();
}

}  // namespace pf::cli

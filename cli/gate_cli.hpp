// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What `preflight check` and `preflight pairs` share on the command line beyond the common options: the limits
// (--thresholds, --baseline). Everything that can be wrong with the input is checked before any rank starts.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "common_options.hpp"
#include "thresholds.hpp"

namespace pf::cli {

struct GateCli {
  std::string thresholdsPath, baselinePath;
  CommonOptions common;

  check::Thresholds limits;  ///< filled by load()
  RunReport baseline;        ///< filled by load() when --baseline is given

  /// Declares the gate's options and the common ones. @param baselineHelp what --baseline compares
  void addOptions(CLI::App& app, const std::string& baselineHelp);
  /// Reads the threshold file and the baseline and checks the outputs can be written. @throws UsageError
  void load();
};

}  // namespace pf::cli

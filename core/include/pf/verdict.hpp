// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The verdict, once, for every command: from a run's results to the document's verdict and the process's
// exit code. No command decides its exit code any other way (docs/exit-codes.md).
//
//   worst status that counts   exit code
//   pass                       0
//   warn                       0, or 1 with --strict
//   fail                       1
//   timeout                    4
//   error                      3
//
// Skipped and absent results are neutral: a phase that did not run, or a device this node does not have, is
// information for the reader, never a pass or a fail by itself (a CPU node without GPUs passes).
#pragma once

#include <vector>

#include "pf/result.hpp"

namespace pf {

struct Verdict {
  Status status = Status::kPass;  ///< the worst status that counts (skipped and absent do not)
  int exit_code = 0;
};

/// @param strict warnings fail (exit 1)
Verdict decideVerdict(const std::vector<Result>& results, bool strict);

/// Sets report.verdict and report.exit_code from its results.
void applyVerdict(RunReport& report, bool strict);

}  // namespace pf

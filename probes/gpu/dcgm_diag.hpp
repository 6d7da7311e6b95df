// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// DCGM's diagnostic (`dcgmi diag -r LEVEL -j`) as findings: its JSON read (the layout of DCGM 4's
// testing/python3/dcgm_diag_schema.json in NVIDIA/DCGM, and DCGM 3's "DCGM GPU Diagnostic" with gpu_id), each
// failed or warning test result with its DCGM_FR_* error (dcgmlib/dcgm_errors.h) turned into a status and a
// remedy, and the bounded run of dcgmi itself. Used by the dcgm probe (`probe --dcgm LEVEL`, `check --dcgm LEVEL`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pf/result.hpp"

namespace pf::probes {

struct DcgmIssue {
  Status status = Status::kWarn;
  std::string category, test, entity;  ///< "Hardware", "Memory", "GPU 3"
  std::string message;                 ///< DCGM's own text, or the test's status when it gave none
  std::optional<int> errorId, severity;
  std::string remedy;
};

struct DcgmDiag {
  std::vector<DcgmIssue> issues;  ///< every result that is not a pass or a skip
  int results = 0, passed = 0;    ///< test results read, and how many passed
  std::string version;            ///< metadata.version (DCGM 4) or "version" (DCGM 3), when given
  std::string runtimeError;       ///< "runtime_error": the diagnostic could not run
};

/// Reads dcgmi's JSON. @throws std::runtime_error naming what is missing when the text is not DCGM's diagnostic
DcgmDiag parseDcgmDiag(const std::string& text);

/// "DCGM_FR_PENDING_ROW_REMAP" for 85; "DCGM error <n>" for a code not in the table.
std::string dcgmErrorName(int id);
/// What to do about a DCGM_FR_* error, from its code and DCGM's severity (dcgmErrorSeverity_t).
std::string dcgmRemedy(std::optional<int> errorId, std::optional<int> severity);

/// The seconds a level may take before dcgmi is stopped: 1: 300, 2: 900, 3: 3600, 4: 10800 (DCGM's guide gives a
/// few minutes for level 1 and up to hours for 4).
int dcgmTimeoutSeconds(int level);

struct CommandRun {
  bool started = false, timedOut = false;
  int exitCode = -1;
  std::string out, error;  ///< stdout; error: why it could not start
};
/// Runs `argv` (argv[0] looked up on PATH), reading its stdout, and kills it after `timeoutSeconds`.
CommandRun runBounded(const std::vector<std::string>& argv, int timeoutSeconds);

}  // namespace pf::probes

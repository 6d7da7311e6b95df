// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--local-ranks N` with no launcher: this process becomes the launcher. It runs mpirun as a child and stays
// to give the job the exit codes every command promises, which mpirun alone does not:
//   - SIGINT or SIGTERM to this process goes on to mpirun (which stops the ranks; each writes its document so
//     far, marked partial) and this process exits 130 or 143, as a shell expects of a stopped program;
//   - a rank that died on a signal (mpirun exits 128 + the signal) is exit 3, a runtime failure. mpirun's own
//     message, just above ours, names the rank and its node;
//   - 0 to 4 pass through unchanged;
//   - a job that outlives --timeout by 10 s (no rank's watchdog could end it: all stopped) is stopped, exit 4.
#pragma once

#include <string>
#include <vector>

namespace pf::cli {

/// Runs `args` (mpirun and its arguments) to the end and returns the exit code for this process.
/// @param command the preflight command, for messages
/// @param timeoutSeconds --timeout (0: none): mpirun is stopped, exit 4, when the job outlives it by 10 s
/// @throws SystemError when mpirun cannot be started
int runLocalJob(const std::vector<std::string>& args, const std::string& command, double timeoutSeconds);

}  // namespace pf::cli

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--local-ranks N` with no launcher: this process becomes the launcher. It runs mpirun as a child and stays
// to give the job the exit codes every command promises, which mpirun alone does not:
//   - SIGINT or SIGTERM to this process goes on to mpirun (which stops the ranks; each writes its document so
//     far, marked partial) and this process exits 130 or 143, as a shell expects of a stopped program;
//   - a rank that died on a signal (mpirun exits 128 + the signal) is exit 3, a runtime failure. mpirun's own
//     message, just above ours, names the rank and its node;
//   - a timeout is exit 4, whichever rank's watchdog fired first;
//   - 0 to 4 pass through unchanged;
//   - a job that outlives --timeout by 10 s (no rank's watchdog could end it: all stopped) is stopped, exit 4;
//   - a job that ended before any rank got through MPI's start is exit 3 with Preflight's own message (no network
//     interface up, say) and a document from the launcher, whatever mpirun returned;
//   - killed by any signal, SIGKILL included, this process takes the job with it: mpirun gets SIGTERM from the
//     kernel (PR_SET_PDEATHSIG) and stops the ranks, and each rank follows its own parent the same way.
// The partial document rank 0 wrote is then made to say the same (amendPartialDocuments): one account of the
// end, in the exit code, on stderr and in the file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pf::cli {

/// How the job ended, for this process: its exit code, and why in the words the document gives (empty when
/// the ranks' own account stands: a pass, a failed check, a rank's error that names itself).
struct JobEnd {
  int code = 0;
  std::string why;
  /// What this process saw is the cause, whatever rank 0 wrote: the signal it forwarded, a rank that died (rank
  /// 0's own account is then a lost connection or mpirun's SIGTERM), mpirun ended by a signal.
  bool overrides = false;
  /// No rank got through MPI's start (mpirun failed, or MPI_Init in the ranks): no rank wrote a document, so the
  /// launcher writes one itself (verdict error, exit 3, `why`).
  bool startup = false;
};

/// Runs `args` (mpirun and its arguments) to the end and returns the exit code for this process.
/// @param command the preflight command, for messages
/// @param timeoutSeconds --timeout (0: none): mpirun is stopped, exit 4, when the job outlives it by 10 s
/// @throws SystemError when mpirun cannot be started
JobEnd runLocalJob(const std::vector<std::string>& args, const std::string& command, double timeoutSeconds);

/// For a rank a launcher started, before MPI starts: the rank gets SIGTERM when its parent (mpirun, orted, a
/// launcher's daemon) dies, so a launcher killed by any signal takes its ranks with it; a rank whose parent is
/// already gone exits 3 at once. Never throws.
void tieRankToParent();

/// For a rank of a `--local-ranks` job, once MPI started: tells the launcher the job got that far (a job that
/// ends before any rank did is a start-up failure, exit 3, not a failed check). A no-op in any other job.
void markRankStarted();

/// A document's path and its modification time before the job started (none: no file then).
struct DocumentStamp {
  std::string path;
  std::optional<std::filesystem::file_time_type> before;
};
std::vector<DocumentStamp> stampDocuments(const std::vector<std::string>& paths);

/// Makes a partial document the ranks left agree with how the job ended: rank 0 only sees mpirun's SIGTERM,
/// whether the launcher was interrupted (SIGINT), a peer died, or another rank's --timeout ended the job. A
/// document is changed only when this job wrote it (its time differs from the stamp), it is marked partial, and
/// its exit_code differs from `end.code` or `end.overrides`: then exit_code, verdict and the partial reason
/// become the job's.
/// Returns the files changed. Never throws: a file that cannot be read or written is left as it is.
std::vector<std::string> amendPartialDocuments(const std::vector<DocumentStamp>& stamps, const JobEnd& end);

}  // namespace pf::cli

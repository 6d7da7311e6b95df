// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The history file: an SQLite database (libsqlite3) that `check --history FILE` appends one run to and
// `preflight history FILE` reads. Several checks may write one file at once: the file is in WAL mode, every
// connection waits for a lock (busy timeout) instead of failing, and each run goes in one transaction, so a
// reader sees a run whole or not at all. The file is marked as Preflight's (PRAGMA application_id) and carries
// its schema version (PRAGMA user_version); anything else is refused with exit code 2. In a build without
// SQLite (PF_WITH_SQLITE=OFF or libsqlite3-dev missing) every function here throws UsageError saying so.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "history_record.hpp"

namespace pf::history {

/// The schema this build writes and reads (PRAGMA user_version).
inline constexpr int kSchemaVersion = 1;
/// 'PFHS': PRAGMA application_id of a Preflight history file.
inline constexpr int32_t kApplicationId = 0x50464853;

/// Whether this build can read and write history files.
bool available();

class Store {
 public:
  enum class Mode { kRead, kWrite };
  /// Opens `path`; kWrite creates the file and its tables when missing.
  /// @throws UsageError naming the path: not a Preflight history file, a newer schema, missing (kRead),
  /// not openable, or a build without SQLite.
  static std::unique_ptr<Store> open(const std::string& path, Mode mode);
  virtual ~Store() = default;
  /// Appends one run in one transaction; returns its id. @throws SystemError when the write fails.
  virtual int64_t append(const RunRecord& run) = 0;
  /// Every run, oldest first, with its nodes, findings and pairs.
  virtual std::vector<RunRecord> runs() = 0;
};

/// Fails early, before a check runs, when `path` could not take its run later: an existing file that is not a
/// Preflight history file of a schema this build reads, or a directory that cannot be written. Creates nothing.
/// @throws UsageError naming the path.
void checkHistoryFile(const std::string& path);

}  // namespace pf::history

namespace pf::history {

/// `check --history FILE` after the verdict (rank 0): appends the check's document as one run. A failure to
/// write is a warning on stderr naming the file and the cause, never the exit code: the verdict is the gate's
/// purpose, and a full or unreachable disk must not drain healthy nodes. @return the run's id, 0 when not written
int64_t recordCheck(const std::string& path, const RunReport& report);

}  // namespace pf::history

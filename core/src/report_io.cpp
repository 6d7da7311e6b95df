// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/report_io.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "pf/comparison_row.hpp"
#include "pf/error.hpp"
#include "pf/input_limits.hpp"
#include "pf/pair_row.hpp"
#include "pf/scale_row.hpp"
#include "pf/sweep_row.hpp"

namespace pf {
namespace {

// A full disk or a failing device is the environment failing at run time (exit 3); anything else here is a
// path the user can change (exit 2). Either way the previous file is still whole: only the temporary was written.
[[noreturn]] void throwWriteError(const std::string& path, int err) {
  std::string what =
      fmt::format("cannot write '{}': {} (the previous file, if any, is unchanged)", path, std::strerror(err));
  if (err == ENOSPC || err == EDQUOT || err == EIO) throw SystemError(what);
  throw UsageError(what);
}

bool writeAll(int fd, const std::string& content) {
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Writes `content` as an unnamed file in `dir` (O_TMPFILE), gives it a temporary name only once it is complete
// and synced, and renames that over `path`: a process killed while it writes or syncs (Slurm's SIGTERM to a
// cancelled prolog, a crash) leaves nothing in the directory. False when any step is not possible here (no
// O_TMPFILE on this filesystem, no /proc, a write error): the caller then writes a named temporary instead,
// which also reports the error.
bool writeUnnamedThenLink(const std::filesystem::path& dir, const std::string& name, const std::string& path,
                          const std::string& content) {
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  if (!writeAll(fd, content) || ::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0) {
    ::close(fd);
    return false;
  }
  const std::string self = fmt::format("/proc/self/fd/{}", fd);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string tmp = (dir / fmt::format(".{}.{}.{}", name, ::getpid(), attempt)).string();
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) != 0) {
      if (errno == EEXIST) continue;
      break;
    }
    ::close(fd);
    if (std::rename(tmp.c_str(), path.c_str()) == 0) return true;
    const int err = errno;
    ::unlink(tmp.c_str());
    throwWriteError(path, err);
  }
  ::close(fd);
  return false;
}

// A device, a FIFO or a socket that already exists (`--json /dev/null`, `/dev/stdout`, a named pipe a collector
// reads) is written in place: renaming a temporary over it would replace the node itself, and as root /dev/null
// would become a plain file that every later `>/dev/null` on the machine writes into. stat() follows the symlink of
// /dev/stdout to the pipe or terminal behind it.
bool isSpecialFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

void writeInPlace(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  const int openErr = errno;
  if (fd < 0) throw UsageError(fmt::format("cannot write '{}': {}", path, std::strerror(openErr)));
  const bool wrote = writeAll(fd, content);
  const int err = errno;
  ::close(fd);
  if (!wrote) throw UsageError(fmt::format("cannot write '{}': {}", path, std::strerror(err)));
}

// `--output cmp/report.md` makes `cmp/`, as `mkdir -p` would, for every command and output (a report's
// folder is often new). A parent that is a file, or one that cannot be made, is the user's to change.
void makeParentDirectories(const std::filesystem::path& dir, const std::string& path) {
  std::error_code ec;
  if (dir.empty() || std::filesystem::is_directory(dir, ec)) return;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw UsageError(
        fmt::format("cannot write '{}': cannot create directory '{}': {}", path, dir.string(), ec.message()));
}

}  // namespace

void writeFileAtomic(const std::string& path, const std::string& content) {
  if (path == "-") {
    std::cout << content << std::flush;
    return;
  }
  if (isSpecialFile(path)) {
    writeInPlace(path, content);
    return;
  }
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  makeParentDirectories(dir, path);
  if (writeUnnamedThenLink(dir, target.filename().string(), path, content)) return;
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  int fd = mkstemp(tmpl.data());
  if (fd < 0)
    throw UsageError(fmt::format("cannot write '{}': {} (check that the directory exists and is writable)", path,
                                 std::strerror(errno)));
  if (!writeAll(fd, content)) {
    int err = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
    throwWriteError(path, err);
  }
  // mkstemp creates 0600; documents are meant to be shared like any output file.
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0 || ::close(fd) != 0 || std::rename(tmpl.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throwWriteError(path, err);
  }
}

void checkWritable(const std::string& path) {
  if (path.empty() || path == "-") return;
  if (isSpecialFile(path)) {
    if (::access(path.c_str(), W_OK) != 0)
      throw UsageError(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    return;
  }
  namespace fs = std::filesystem;
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  makeParentDirectories(dir, path);
  if (::access(dir.c_str(), W_OK) != 0)
    throw UsageError(fmt::format("cannot write '{}': directory '{}' is not writable", path, dir.string()));
  if (fs::is_directory(path, ec)) throw UsageError(fmt::format("cannot write '{}': it is a directory", path));
  // access() passes root everywhere and says nothing of space: write one byte beside the target, as the
  // final write will, so a read-only mount or a full disk is known before anything is measured. Unnamed where
  // the filesystem allows (nothing is left if the process is killed here), else a named temporary.
  if (int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600); fd >= 0) {
    const bool wrote = ::write(fd, "\n", 1) == 1;
    const int err = errno;
    ::close(fd);
    if (!wrote) throw UsageError(fmt::format("cannot write '{}': {} in '{}'", path, std::strerror(err), dir.string()));
    return;
  }
  std::string probe = (dir / ".preflight-probe.XXXXXX").string();
  int fd = mkstemp(probe.data());
  if (fd < 0) throw UsageError(fmt::format("cannot write '{}': {} in '{}'", path, std::strerror(errno), dir.string()));
  const bool wrote = ::write(fd, "\n", 1) == 1;
  const int err = errno;
  ::close(fd);
  ::unlink(probe.c_str());
  if (!wrote) throw UsageError(fmt::format("cannot write '{}': {} in '{}'", path, std::strerror(err), dir.string()));
}

void writeReport(const RunReport& report, const std::string& path) {
  writeFileAtomic(path, toJson(report).dump(2) + "\n");
}

RunReport readReport(const std::string& path) {
  const std::string name = path == "-" ? "<stdin>" : path;
  const Json j = parseJsonText(readTextFile(path), name, "pass a document written by preflight --json");
  return reportFromDocument(j, name);
}

namespace {

// Rows are decoded where they are shown, long after the file was read; decoding them once here puts the file
// and the row's path in the message ("results[3].rows[2]: size_bytes: missing"), once, before anything runs.
void checkRowsDecode(const RunReport& report) {
  for (size_t i = 0; i < report.results.size(); ++i) {
    const Result& r = report.results[i];
    try {  // what the views decode beyond the rows: a sweep's parameters, a scale result's predictions
      if (r.kind == Kind::kSweep) (void)sweepParamsFromJson(r.params);
      if (r.kind == Kind::kScale) (void)scaleSummaryFromResult(r);
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("results[{}]: {}", i, e.what()));
    }
    if (!r.rows.is_array()) {
      if (r.rows.is_null()) continue;
      throw UsageError(fmt::format("results[{}].rows: not an array", i));
    }
    for (size_t k = 0; k < r.rows.size(); ++k) {
      try {
        if (r.kind == Kind::kSweep) (void)sweepRowFromJson(r.rows[k]);
        if (r.kind == Kind::kPairs) (void)pairRowFromJson(r.rows[k]);
        if (r.kind == Kind::kComparison) (void)comparisonRowFromJson(r.rows[k]);
      } catch (const UsageError& e) {
        throw UsageError(fmt::format("results[{}].rows[{}]: {}", i, k, e.what()));
      }
    }
  }
}

}  // namespace

RunReport reportFromDocument(const Json& document, const std::string& name) {
  try {
    RunReport report = reportFromJson(document);
    checkRowsDecode(report);
    return report;
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("'{}': {}", name, e.what()));
  }
}

}  // namespace pf

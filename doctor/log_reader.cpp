// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "log_reader.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pf/error.hpp"

namespace pf::doctor {
namespace {

// Appends everything readable from `fd` to `out`; false (errno set) on a read error.
bool readAll(int fd, std::string& out, std::size_t hint) {
  std::size_t used = out.size();
  out.resize(used + std::max<std::size_t>(hint, 1 << 16));
  for (;;) {
    if (used == out.size()) out.resize(out.size() * 2);
    const ssize_t n = ::read(fd, out.data() + used, out.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  out.resize(used);
  return true;
}

}  // namespace

std::string readLog(const std::string& path) {
  std::string out;
  if (path == "-") {
    if (!readAll(STDIN_FILENO, out, 1 << 20))
      throw UsageError(fmt::format("cannot read stdin: {}", std::strerror(errno)));
    return out;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw UsageError(fmt::format("cannot read '{}': {} (give a log file, or - for stdin)", path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw UsageError(fmt::format("'{}' is a directory; give the log files in it (e.g. '{}/*.log')", path, path));
  }
  // +1 so a regular file's content fits before the first read that returns 0.
  const bool ok = readAll(fd, out, S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) + 1 : 1 << 20);
  const int err = errno;
  ::close(fd);
  if (!ok) throw UsageError(fmt::format("cannot read '{}': {}", path, std::strerror(err)));
  return out;
}

}  // namespace pf::doctor

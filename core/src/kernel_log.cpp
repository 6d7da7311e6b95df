// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/kernel_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pf {

std::optional<XidLine> parseXidLine(std::string_view line) {
  const std::size_t at = line.find("Xid (");
  if (at == std::string_view::npos) return std::nullopt;
  const bool sxid = at > 0 && line[at - 1] == 'S';
  if (!sxid && line.substr(0, at).find("NVRM") == std::string_view::npos) return std::nullopt;
  const std::size_t close = line.find("): ", at);
  if (close == std::string_view::npos) return std::nullopt;
  std::size_t i = close + 3, n = 0;
  while (i + n < line.size() && n < 6 && line[i + n] >= '0' && line[i + n] <= '9') ++n;
  if (n == 0) return std::nullopt;
  XidLine x;
  x.sxid = sxid;
  for (std::size_t k = 0; k < n; ++k) x.code = x.code * 10 + (line[i + k] - '0');
  std::string_view dev = line.substr(at + 5, close - at - 5);  // "PCI:0000:3b:00", or "0000:3b:00" (older drivers)
  if (dev.starts_with("PCI:")) dev.remove_prefix(4);
  for (char c : dev.substr(0, 32)) x.pci += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return x;
}

std::string xidName(const XidLine& x) { return (x.sxid ? "SXid " : "Xid ") + std::to_string(x.code); }

KernelLogRead readKernelLog(const std::string& path, const std::function<void(std::string_view)>& take) {
  return readKernelLogTimed(path, [&](std::string_view line, const KernelLogTime&) { take(line); });
}

KernelLogRead readKernelLogTimed(const std::string& path,
                                 const std::function<void(std::string_view, const KernelLogTime&)>& take) {
  KernelLogRead out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    out.error = std::strerror(errno);
    return out;
  }
  out.opened = true;
  auto one = [&](std::string_view line) {
    if (line.empty() || line[0] == ' ') return;  // a /dev/kmsg record's dictionary lines start with a space
    ++out.records;
    const KernelLogTime time = kernelLogTime(line);
    if (const std::size_t semi = line.find(';'); line[0] >= '0' && line[0] <= '9' && semi < 64)
      line.remove_prefix(semi + 1);
    take(line, time);
  };
  std::string pending;
  std::size_t bytes = 0;
  char buf[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && (errno == EPIPE || errno == EINTR)) continue;  // EPIPE: records overwritten while reading
    if (n <= 0) break;  // EAGAIN: the end of the buffer (or an error: what was read counts)
    bytes += static_cast<std::size_t>(n);
    pending.append(buf, static_cast<std::size_t>(n));
    // Whole lines out, the unfinished one kept for the next read (one erase per read, not per line).
    std::size_t from = 0;
    for (std::size_t nl; (nl = pending.find('\n', from)) != std::string::npos; from = nl + 1)
      one(std::string_view(pending).substr(from, nl - from));
    pending.erase(0, from);
    if (bytes > (std::size_t{64} << 20)) break;
  }
  ::close(fd);
  if (!pending.empty()) one(pending);
  return out;
}

}  // namespace pf

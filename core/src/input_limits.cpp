// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/input_limits.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pf/error.hpp"
#include "pf/report_io.hpp"

namespace pf {
namespace {

// Reads at most kMaxInputBytes from `fd` (one byte more tells a file over the limit); false when it is over.
bool readBounded(int fd, const std::string& name, std::string& out) {
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError(fmt::format("cannot read '{}': {}", name, std::strerror(errno)));
    if (n == 0) return true;
    if (out.size() + static_cast<size_t>(n) > kMaxInputBytes) return false;
    out.append(buf, static_cast<size_t>(n));
  }
}

[[noreturn]] void throwTooLarge(const std::string& name) {
  throw UsageError(
      fmt::format("'{}' is larger than {} MiB, the most Preflight reads from one input; pass the "
                  "document or nccl-tests output itself",
                  name, kMaxInputBytes >> 20));
}

// The deepest nesting of `text`, counting brackets outside strings; stops at the first level over the limit.
// A linear scan before parsing: nlohmann's parser is iterative, but copying or destroying the result recurses.
size_t depthOverLimit(std::string_view text, int& depth) {
  depth = 0;
  bool inString = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') inString = true;
    if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) return i;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::string readTextFile(const std::string& path) {
  std::string out;
  if (path == "-") {
    if (!readBounded(STDIN_FILENO, "<stdin>", out)) throwTooLarge("<stdin>");
    return out;
  }
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one; the type check then
  // refuses it with every other non-regular file (/dev/zero, a socket, a terminal).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw UsageError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw UsageError(fmt::format("cannot read '{}': {}", path, std::strerror(err)));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw UsageError(fmt::format("'{}' is a directory, not a file", path));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UsageError(
        fmt::format("'{}' is not a regular file (a FIFO, a device or a socket); pass a file, or '-' "
                    "to read stdin",
                    path));
  }
  if (static_cast<unsigned long long>(st.st_size) > kMaxInputBytes) {
    ::close(fd);
    throwTooLarge(path);
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  out.reserve(static_cast<size_t>(st.st_size));
  bool whole = false;
  try {
    whole = readBounded(fd, path, out);  // bounded again: a file that grows while it is read (a live log)
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  if (!whole) throwTooLarge(path);
  return out;
}

Json parseJsonText(std::string_view text, const std::string& name, const std::string& hint) {
  int depth = 0;
  if (const size_t at = depthOverLimit(text, depth); at != std::string_view::npos)
    throw UsageError(
        fmt::format("'{}' nests JSON more than {} levels deep (byte {}); a Preflight document or "
                    "nccl-tests output nests about ten",
                    name, kMaxJsonDepth, at));
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for a number like 1e999
    throw UsageError(fmt::format("'{}' is not valid JSON ({}); {}", name, clipForMessage(e.what(), 240), hint));
  }
}

std::string clipForMessage(std::string_view value, std::size_t max) {
  if (value.size() <= max) return std::string(value);
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return fmt::format("{}... ({} bytes)", value.substr(0, cut), value.size());
}

}  // namespace pf

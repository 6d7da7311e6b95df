// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Captures what the process writes to its standard output (file descriptor 1, stdio included) while it lives.
// NCCL prints its diagnostics report (NCCL_RUN_DIAGNOSTICS, NCCL >= 2.31) on rank 0's standard output during
// communicator init, not through NCCL_DEBUG_FILE; the NCCL pair engine captures it to fold each line into the
// check's findings (nccl_diag.hpp). The descriptor is redirected, not std::cout, because NCCL writes with stdio.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace pf::check {

class StdoutCapture {
 public:
  /// Starts capturing; when no temporary file can be made, captures nothing (text() stays empty).
  StdoutCapture() {
    char path[] = "/tmp/preflight-stdout-XXXXXX";
    file_ = ::mkstemp(path);
    if (file_ < 0) return;
    ::unlink(path);  // nothing is left behind, whatever happens next
    std::fflush(stdout);
    saved_ = ::dup(STDOUT_FILENO);
    if (saved_ < 0 || ::dup2(file_, STDOUT_FILENO) < 0) {
      ::close(file_);
      file_ = -1;
    }
  }
  /// A capture that was not finished (an exception left the scope) writes what it holds back, so nothing is lost.
  ~StdoutCapture() {
    const std::string text = finish();
    if (!text.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  }
  StdoutCapture(const StdoutCapture&) = delete;
  StdoutCapture& operator=(const StdoutCapture&) = delete;

  /// Restores the standard output and returns everything written since the start (once; later calls: "").
  std::string finish() {
    if (file_ < 0) return {};
    std::fflush(stdout);
    ::dup2(saved_, STDOUT_FILENO);
    ::close(saved_);
    std::string text;
    char buf[4096];
    ::lseek(file_, 0, SEEK_SET);
    for (ssize_t n; (n = ::read(file_, buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
    ::close(file_);
    file_ = -1;
    return text;
  }

 private:
  int file_ = -1, saved_ = -1;
};

}  // namespace pf::check

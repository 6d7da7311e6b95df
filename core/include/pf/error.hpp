// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Typed errors and the process exit codes they map to.
//
// Contract: code inside a probe, a backend or a sweep throws a pf::Error (or a subclass) and never calls exit()
// or MPI_Abort. The runner catches at the task boundary, records the failure as data (status=error) and
// carries on; the CLI turns an uncaught Error into its exit code. Programmer errors (broken invariants) use
// PF_CHECK and abort, because no caller can recover from them.
#pragma once

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace pf {

/// Process exit codes shared by every command (see docs/exit-codes.md).
enum class ExitCode : int {
  kPass = 0,         ///< everything checked passed
  kCheckFailed = 1,  ///< the verdict: a check failed, a wrong element, a diagnosed problem
  kUsage = 2,        ///< bad usage or unreadable input; the message says what to change
  kRuntime = 3,      ///< the environment or a library failed at run time (MPI, CUDA, NCCL, verbs)
  kTimeout = 4,      ///< a time limit expired
};

/// Base of every error Preflight throws on purpose.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

/// Bad arguments or bad input files: exit code 2.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& what) : Error(ExitCode::kUsage, what) {}
};

/// A library or system call failed at run time: exit code 3. Subclasses name the library.
class RuntimeFailure : public Error {
 public:
  explicit RuntimeFailure(const std::string& what) : Error(ExitCode::kRuntime, what) {}
};

class MpiError : public RuntimeFailure {
  using RuntimeFailure::RuntimeFailure;
};
class CudaError : public RuntimeFailure {
  using RuntimeFailure::RuntimeFailure;
};
class NcclError : public RuntimeFailure {
  using RuntimeFailure::RuntimeFailure;
};
class SystemError : public RuntimeFailure {
  using RuntimeFailure::RuntimeFailure;
};

class TimeoutError : public Error {
 public:
  explicit TimeoutError(const std::string& what) : Error(ExitCode::kTimeout, what) {}
};

namespace detail {
/// Collects the message of a failed PF_CHECK and aborts when destroyed (after the `<<` chain has run).
class CheckFailure {
 public:
  CheckFailure(const char* cond, const char* file, int line) {
    stream_ << file << ":" << line << ": check failed: " << cond << " ";
  }
  [[noreturn]] ~CheckFailure() {
    std::cerr << stream_.str() << std::endl;
    std::abort();
  }
  template <typename T>
  CheckFailure& operator<<(const T& value) {
    stream_ << value;
    return *this;
  }

 private:
  std::ostringstream stream_;
};
}  // namespace detail

}  // namespace pf

/// Aborts with file:line and the streamed detail when `cond` is false. For invariants only, never for input.
#define PF_CHECK(cond) \
  if (cond) {          \
  } else               \
    ::pf::detail::CheckFailure(#cond, __FILE__, __LINE__)

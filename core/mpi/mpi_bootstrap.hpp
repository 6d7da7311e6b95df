// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The MPI bootstrap, visible to MPI-specific code (the MPI collective backend) that needs the communicator.
#pragma once

#include <mpi.h>

#include <string>

#include "pf/bootstrap.hpp"
#include "pf/error.hpp"

namespace pf {

/// Throws MpiError with the MPI error string, the expression and file:line.
#define PF_MPI_CHECK(expr)                                                                   \
  do {                                                                                       \
    int pf_mpi_rc = (expr);                                                                  \
    if (pf_mpi_rc != MPI_SUCCESS) ::pf::throwMpiError(pf_mpi_rc, #expr, __FILE__, __LINE__); \
  } while (0)

[[noreturn]] void throwMpiError(int rc, const char* expr, const char* file, int line);

/// The first line of MPI_Get_library_version ("Open MPI v4.1.4, package: ..."). Some MPIs count the
/// terminating NUL in the length they return; it is not part of the text (a document would carry "\u0000").
std::string mpiLibraryVersion();

class MpiBootstrap final : public Bootstrap {
 public:
  /// Initialises MPI (if nobody has yet) and duplicates MPI_COMM_WORLD so our traffic never matches a user's.
  MpiBootstrap(int* argc, char*** argv);
  ~MpiBootstrap() override;
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void barrier() override;
  void idleBarrier() override;
  std::vector<std::string> allGather(const std::string& local) override;
  void broadcast(std::string& data, int root) override;
  std::string name() const override { return "mpi"; }
  void abortAll(int exitCode) override { MPI_Abort(MPI_COMM_WORLD, exitCode); }
  MPI_Comm comm() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  bool ownsInit_ = false;
};

}  // namespace pf

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "mpi_bootstrap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "pf/bootstrap_factory.hpp"
#include "pf/environment.hpp"
#include "pf/log.hpp"

namespace pf {

std::string mpiLibraryVersion() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string v(text, static_cast<size_t>(std::clamp(len, 0, MPI_MAX_LIBRARY_VERSION_STRING)));
  v.resize(std::min(v.find('\0'), v.find('\n')));  // npos for both: the whole text
  while (!v.empty() && (v.back() == ' ' || v.back() == '\r' || v.back() == '\t')) v.pop_back();
  return v;
}

void throwMpiError(int rc, const char* expr, const char* file, int line) {
  char msg[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  throw MpiError(fmt::format("{} failed: {} ({}:{}, host {})", expr, msg, file, line, hostName()));
}

MpiBootstrap::MpiBootstrap(int* argc, char*** argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    // MPI_THREAD_SINGLE: every MPI call is made by the main thread (the trainer overlaps with MPI_Iallreduce
    // and MPI_Test between layers, not with a helper thread). Any higher level costs every call: Open MPI 4.1
    // turns on its internal locking (opal_uses_threads) for FUNNELED and SERIALIZED too, and that made
    // `preflight sweep` slower than a bare MPI_Init program at small sizes (docs/performance.md, the
    // process-level comparison). The one call from another thread is the watchdog's MPI_Abort when --timeout
    // expires, which Open MPI carries out through its runtime, not the communication paths.
    int provided = 0;
    PF_MPI_CHECK(MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided));
    ownsInit_ = true;
  }
  // Errors come back as return codes (turned into MpiError) instead of aborting the whole job.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  PF_MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm_));
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  PF_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
  PF_MPI_CHECK(MPI_Comm_size(comm_, &size_));
}

MpiBootstrap::~MpiBootstrap() {
  // Cleanup warns and continues: a destructor must not throw.
  if (comm_ != MPI_COMM_NULL && MPI_Comm_free(&comm_) != MPI_SUCCESS) PF_LOG_WARN("mpi", "MPI_Comm_free failed");
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (ownsInit_ && !finalized) MPI_Finalize();
}

void MpiBootstrap::barrier() { PF_MPI_CHECK(MPI_Barrier(comm_)); }

void MpiBootstrap::idleBarrier() {
  MPI_Request req = MPI_REQUEST_NULL;
  PF_MPI_CHECK(MPI_Ibarrier(comm_, &req));
  for (int done = 0;;) {
    PF_MPI_CHECK(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
}

std::vector<std::string> MpiBootstrap::allGather(const std::string& local) {
  int len = static_cast<int>(local.size());
  std::vector<int> lens(size_), displs(size_);
  PF_MPI_CHECK(MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, comm_));
  int total = 0;
  for (int i = 0; i < size_; ++i) {
    displs[i] = total;
    total += lens[i];
  }
  std::string all(static_cast<size_t>(total), '\0');
  PF_MPI_CHECK(MPI_Allgatherv(local.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, comm_));
  std::vector<std::string> out;
  out.reserve(size_);
  for (int i = 0; i < size_; ++i) out.push_back(all.substr(displs[i], lens[i]));
  return out;
}

void MpiBootstrap::broadcast(std::string& data, int root) {
  long long len = static_cast<long long>(data.size());
  PF_MPI_CHECK(MPI_Bcast(&len, 1, MPI_LONG_LONG, root, comm_));
  data.resize(static_cast<size_t>(len));
  PF_MPI_CHECK(MPI_Bcast(data.data(), static_cast<int>(len), MPI_CHAR, root, comm_));
}

std::unique_ptr<Bootstrap> makeMpiBootstrap(int* argc, char*** argv) {
  return std::make_unique<MpiBootstrap>(argc, argv);
}
bool haveMpi() { return true; }

}  // namespace pf

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What every NCCL user here shares (the backend, the pair engine): PF_NCCL_CHECK, an NCCL call that throws
// NcclError with the expression, NCCL's error string, its last error message (which names the failing
// transport or peer), file:line and host; the unique-id exchange; a stream wait that surfaces asynchronous
// NCCL errors and aborts the communicator on one; and the communicator's owner, which never hangs at its end.
#pragma once

#include <fmt/format.h>
#include <nccl.h>

#include "pf/environment.hpp"
#include "pf/error.hpp"

#define PF_NCCL_CHECK(expr)                                                                                         \
  do {                                                                                                              \
    ncclResult_t pf_nccl_rc = (expr);                                                                               \
    if (pf_nccl_rc != ncclSuccess)                                                                                  \
      throw ::pf::NcclError(fmt::format("{} failed: {} / {} at {}:{} on {}", #expr, ncclGetErrorString(pf_nccl_rc), \
                                        ncclGetLastError(nullptr), __FILE__, __LINE__, ::pf::hostName()));          \
  } while (0)

#include <algorithm>
#include <exception>
#include <string>

#include "pf/bootstrap.hpp"

namespace pf {

/// Owns one NCCL communicator and ends it without hanging. abort() (idempotent) is for a failure: an NCCL kernel
/// waiting on a dead peer ends only once its communicator is aborted, and until then anything that synchronises
/// with the device (cudaFree, cudaFreeHost, cudaStreamSynchronize, ncclCommDestroy) waits with it, so the rank
/// never reaches the code that takes the job down (cli/launch.cpp). end() (and the destructor) destroys the
/// communicator after a normal run and aborts it while an exception leaves (one thrown after the owner was made).
class NcclComm {
 public:
  NcclComm() = default;
  ~NcclComm() { end(); }
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;

  /// Joins the communicator of `ranks` ranks as `rank` (collective over them).
  void init(int ranks, const ncclUniqueId& id, int rank) { PF_NCCL_CHECK(ncclCommInitRank(&comm_, ranks, id, rank)); }
  ncclComm_t get() const { return comm_; }
  void abort() noexcept {
    if (comm_) ncclCommAbort(comm_);
    comm_ = nullptr;
  }
  /// For an owner whose destructor frees device memory: call it first, so that the stream's kernels have ended.
  void end() noexcept {
    if (std::uncaught_exceptions() > exceptionsAtStart_)
      abort();
    else if (comm_)
      ncclCommDestroy(comm_);
    comm_ = nullptr;
  }

 private:
  ncclComm_t comm_ = nullptr;
  int exceptionsAtStart_ = std::uncaught_exceptions();
};

/// Rank 0 creates the NCCL unique id and every rank of `boot` receives it (a collective call), as nccl-tests
/// does with MPI_Bcast.
inline ncclUniqueId shareNcclUniqueId(Bootstrap& boot) {
  ncclUniqueId id{};
  std::string blob;
  if (boot.rank() == 0) {
    PF_NCCL_CHECK(ncclGetUniqueId(&id));
    blob.assign(reinterpret_cast<const char*>(&id), sizeof id);
  }
  boot.broadcast(blob, 0);
  std::copy(blob.begin(), blob.end(), reinterpret_cast<char*>(&id));
  return id;
}

}  // namespace pf

#include <cuda_runtime_api.h>

#include "pf/cuda_check.hpp"

namespace pf {

/// Waits for `stream` by polling rather than blocking in cudaStreamSynchronize, so that an asynchronous NCCL
/// error (a dead peer, a network failure) surfaces as an NcclError instead of a hang, as nccl-tests does. On any
/// failure it aborts `comm` before throwing: the stream's NCCL kernels are still running, and whatever the error
/// unwinds through (a buffer's cudaFree, a stream's destruction) would otherwise wait for them forever.
inline void waitNcclStream(cudaStream_t stream, NcclComm& comm) {
  try {
    for (;;) {
      cudaError_t rc = cudaStreamQuery(stream);
      if (rc == cudaSuccess) return;
      if (rc != cudaErrorNotReady) PF_CUDA_CHECK(rc);
      ncclResult_t async = ncclSuccess;
      PF_NCCL_CHECK(ncclCommGetAsyncError(comm.get(), &async));
      PF_NCCL_CHECK(async);
    }
  } catch (...) {
    comm.abort();  // the message was formatted before: ncclGetLastError still described the failure
    throw;
  }
}

}  // namespace pf

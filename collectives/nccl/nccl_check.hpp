// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What every NCCL user here shares (the backend, the pair engine): PF_NCCL_CHECK, an NCCL call that throws
// NcclError with the expression, NCCL's error string, its last error message (which names the failing
// transport or peer), file:line and host; the unique-id exchange; a stream wait that surfaces asynchronous
// NCCL errors; and the end of a communicator that does not hang after one.
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

/// Ends a communicator from its owner's destructor: ncclCommDestroy after a normal run, ncclCommAbort when the
/// destructor runs because an exception is leaving (`exceptionsAtStart`: std::uncaught_exceptions() when the owner
/// was made). Destroy waits for the communicator's operations, and after an NCCL failure they may never finish:
/// the rank would hang instead of reporting the error and taking the job down (cli/launch.cpp).
inline void endNcclComm(ncclComm_t comm, int exceptionsAtStart) {
  if (!comm) return;
  if (std::uncaught_exceptions() > exceptionsAtStart)
    ncclCommAbort(comm);
  else
    ncclCommDestroy(comm);
}

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
/// error (a dead peer, a network failure) surfaces as an NcclError instead of a hang, as nccl-tests does.
inline void waitNcclStream(cudaStream_t stream, ncclComm_t comm) {
  for (;;) {
    cudaError_t rc = cudaStreamQuery(stream);
    if (rc == cudaSuccess) return;
    if (rc != cudaErrorNotReady) PF_CUDA_CHECK(rc);
    ncclResult_t async = ncclSuccess;
    PF_NCCL_CHECK(ncclCommGetAsyncError(comm, &async));
    PF_NCCL_CHECK(async);
  }
}

}  // namespace pf

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL backend's call table (../call_table.hpp): one NcclCall per collective, registered in nccl_calls.cpp
// under the collective's registry key. NcclBackend::launch resolves the type and op once per launch into
// NcclArgs; a call only enqueues NCCL work on the stream (complete() waits for it).
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "../backend.hpp"
#include "../call_table.hpp"

namespace pf::collectives {

/// One launch as NCCL takes it.
struct NcclArgs {
  const Launch& l;
  ncclComm_t comm;
  cudaStream_t stream;
  int rank, size;
  ncclDataType_t t;  ///< l.dtype
  ncclRedOp_t op;    ///< l.op (sum for data-movement collectives)
  size_t es;         ///< bytes per element of l.dtype
};

/// How one collective runs on NCCL.
struct NcclCall {
  /// Enqueues one operation on a.stream.
  void (*run)(const NcclArgs& a) = nullptr;
  /// For a call made of sends and receives in one NCCL group: how many elements it sends, given the launch's count
  /// and the number of ranks. In place, its send side is then staged through a copy (NcclBackend::launch): NCCL
  /// does not allow one buffer to be both sent and received in one group, and its result is then undefined.
  size_t (*groupedSendElements)(size_t count, int ranks) = nullptr;
};

}  // namespace pf::collectives

/// Registers the NCCL call for the collective `key`: PF_REGISTER_NCCL_CALL("all_reduce", .run = f).
#define PF_REGISTER_NCCL_CALL(key, ...) PF_REGISTER_CALL(::pf::collectives::NcclCall, key, __VA_ARGS__)

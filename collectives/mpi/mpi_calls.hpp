// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The MPI backend's call table (../call_table.hpp): one MpiCall per collective, registered in mpi_calls.cpp
// under the collective's registry key. MpiBackend::launch resolves the count, type and op once per launch into
// MpiArgs, so a call is only the MPI function(s) and what MPI's layout differs in from NCCL's.
#pragma once

#include <mpi.h>

#include "../backend.hpp"
#include "../call_table.hpp"

namespace pf::collectives {

/// One launch as MPI takes it.
struct MpiArgs {
  const Launch& l;
  MPI_Comm comm;
  int rank, size;
  int n;           ///< l.count as MPI's int (MpiBackend::launch rejects counts above INT_MAX)
  MPI_Datatype t;  ///< l.dtype (half and bfloat16 as a 2-byte type, mpi_types.hpp)
  MPI_Op op;       ///< l.op; sum for avg, which the call completes with divideInPlace
  const void* in;  ///< l.send, or MPI_IN_PLACE in place
};

/// How one collective runs on MPI.
struct MpiCall {
  /// One operation, avg's division included.
  void (*run)(const MpiArgs& a) = nullptr;
  /// Optional: `times` operations back to back with nothing between the library calls, for the timed loop.
  /// Used only where the op needs no second step (not avg); without it the loop calls run().
  void (*loop)(const MpiArgs& a, int times) = nullptr;
};

}  // namespace pf::collectives

/// Registers the MPI call for the collective `key`: PF_REGISTER_MPI_CALL("all_reduce", .run = f, .loop = g).
#define PF_REGISTER_MPI_CALL(key, ...) PF_REGISTER_CALL(::pf::collectives::MpiCall, key, __VA_ARGS__)

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Maps sweep data types and ops to MPI. MPI has no half or bfloat16 type, so those travel as a 2-byte
// contiguous type reduced by user-defined ops that widen to float, reduce, and round back (what a GPU does
// per element). avg has no MPI op: it is a sum followed by a division on the receiving ranks.
#pragma once

#include <mpi.h>

#include "../dtype.hpp"

namespace pf::collectives {

class MpiTypes {
 public:
  MpiTypes();
  ~MpiTypes();
  MpiTypes(const MpiTypes&) = delete;
  MpiTypes& operator=(const MpiTypes&) = delete;

  MPI_Datatype type(DataType t) const;
  /// The op that implements `op` on `t` (sum for avg).
  MPI_Op op(DataType t, RedOp op) const;

 private:
  MPI_Datatype twoBytes_ = MPI_DATATYPE_NULL;
  // [half=0, bfloat16=1][sum, prod, max, min]
  MPI_Op userOps_[2][4] = {};
};

/// Divides `count` elements of `buf` by `n` in place (the second half of avg), truncating for integers.
void divideInPlace(DataType t, void* buf, size_t count, int n);

}  // namespace pf::collectives

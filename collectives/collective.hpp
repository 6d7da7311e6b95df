// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A collective descriptor: how a requested size becomes element counts, the bytes that algbw divides by, the
// bus-bandwidth factor (nccl-tests' <coll>GetBw in src/*.cu, doc/PERFORMANCE.md) and the exact expected output.
// One descriptor per file, descriptors/<key>.cpp, picked up by CMake without an edit; each registers itself
// with PF_REGISTER_COLLECTIVE, and that registration is the only place its key is written. How a backend runs
// it is that backend's business: one entry per collective in the backend's call table (call_table.hpp). The
// size x type x op x iteration loop lives once, in driver.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "dtype.hpp"
#include "pf/registry.hpp"

namespace pf::collectives {

/// Element counts for one size, as nccl-tests' <coll>GetCollByteCount computes them.
struct Layout {
  size_t sendCount = 0;          ///< elements this rank sends from
  size_t recvCount = 0;          ///< elements this rank receives into
  size_t paramCount = 0;         ///< count passed to the call (the table's `count` column)
  size_t sendInPlaceOffset = 0;  ///< in-place: send = recvbuf + this * rank
  size_t recvInPlaceOffset = 0;  ///< in-place: recv = recvbuf + this * rank
  size_t bufferCount() const { return sendCount > recvCount ? sendCount : recvCount; }
};

/// Who this rank is and what it reduces with, for computing inputs and expected outputs.
struct CollArgs {
  int rank = 0;
  int nranks = 1;
  int root = 0;
  DataType dtype = DataType::kFloat;
  RedOp op = RedOp::kSum;  ///< kNone for data-movement collectives
  uint64_t seed = 0;
};

/// key() is the registry key ("all_reduce", ...), handed over by the registry (pf::Registered).
class Collective : public Registered {
 public:
  using Registered::Registered;  // a test double names itself: Gather() : Collective("gather")
  /// True when the op matters (all_reduce, reduce, reduce_scatter).
  virtual bool reduces() const { return false; }
  /// True when the root matters and is printed (broadcast, reduce).
  virtual bool rooted() const { return false; }
  /// Counts for `count` elements of the requested size on `nranks` ranks of `eltSize`-byte elements.
  virtual Layout layout(size_t count, int nranks, size_t eltSize) const = 0;
  /// Bytes algbw divides by: the collective's "S" in nccl-tests' formulas.
  virtual double algBytes(const Layout& l, int nranks, size_t eltSize) const = 0;
  /// busbw = algbw x busFactor(n).
  virtual double busFactor(int nranks) const = 0;
  /// Writes the expected content of this rank's receive window (recvCount elements) into `out`.
  /// @return false when this rank's output is not defined (reduce on a non-root rank).
  virtual bool expected(void* out, const Layout& l, const CollArgs& a) const = 0;

  /// The table's size column: max(send, recv) bytes.
  uint64_t sizeBytes(const Layout& l, size_t eltSize) const { return l.bufferCount() * eltSize; }
  /// Fills this rank's input (sendCount elements) into `send`.
  void fillInput(void* send, const Layout& l, const CollArgs& a) const;
};

/// Per-rank share of `count` for collectives that split the buffer, rounded down to a multiple of 16 bytes
/// exactly as nccl-tests does, so the printed sizes match theirs.
size_t splitCount(size_t count, int nranks, size_t eltSize);

}  // namespace pf::collectives

#define PF_REGISTER_COLLECTIVE(Type, key) PF_REGISTER(::pf::collectives::Collective, Type, key)

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The MPI call for each collective: blocking MPI collectives on host buffers, one block per collective keyed
// by its registry key (descriptors/<key>.cpp). Where MPI's result layout differs from NCCL's, the call moves
// it, so both backends are verified against the same expected output.
#include "mpi_calls.hpp"

#include <cstring>

#include "mpi_bootstrap.hpp"
#include "mpi_types.hpp"

namespace pf::collectives {
namespace {

void allReduce(const MpiArgs& a) {
  PF_MPI_CHECK(MPI_Allreduce(a.in, a.l.recv, a.n, a.t, a.op, a.comm));
  if (a.l.op == RedOp::kAvg) divideInPlace(a.l.dtype, a.l.recv, a.l.count, a.size);
}
// The timed all-reduce loop with everything resolved once: per call it is exactly a bare MPI_Allreduce loop.
// (Measured: the per-call virtual dispatch and type switch cost ~10 ns, 2% of a 0.5 us shared-memory
// all-reduce.)
void allReduceLoop(const MpiArgs& a, int times) {
  const void* in = a.in;
  void* out = a.l.recv;
  const int n = a.n;
  const MPI_Datatype t = a.t;
  const MPI_Op op = a.op;
  const MPI_Comm comm = a.comm;
  for (int i = 0; i < times; ++i) PF_MPI_CHECK(MPI_Allreduce(in, out, n, t, op, comm));
}
PF_REGISTER_MPI_CALL("all_reduce", .run = allReduce, .loop = allReduceLoop);

void allGather(const MpiArgs& a) {
  if (a.l.inPlace)
    PF_MPI_CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a.l.recv, a.n, a.t, a.comm));
  else
    PF_MPI_CHECK(MPI_Allgather(a.l.send, a.n, a.t, a.l.recv, a.n, a.t, a.comm));
}
PF_REGISTER_MPI_CALL("all_gather", .run = allGather);

void reduceScatter(const MpiArgs& a) {
  if (a.l.inPlace) {
    // MPI leaves the in-place result at the start of the buffer, NCCL at this rank's block; move it so
    // both backends are verified against the same layout.
    void* base = const_cast<void*>(a.l.send);
    PF_MPI_CHECK(MPI_Reduce_scatter_block(MPI_IN_PLACE, base, a.n, a.t, a.op, a.comm));
    if (base != a.l.recv) std::memmove(a.l.recv, base, a.l.count * sizeOf(a.l.dtype));
  } else {
    PF_MPI_CHECK(MPI_Reduce_scatter_block(a.l.send, a.l.recv, a.n, a.t, a.op, a.comm));
  }
  if (a.l.op == RedOp::kAvg) divideInPlace(a.l.dtype, a.l.recv, a.l.count, a.size);
}
PF_REGISTER_MPI_CALL("reduce_scatter", .run = reduceScatter);

void broadcast(const MpiArgs& a) {
  // Out of place the root's data must also reach its own receive buffer, as ncclBroadcast does.
  if (a.rank == a.l.root && a.l.send != a.l.recv) std::memcpy(a.l.recv, a.l.send, a.l.count * sizeOf(a.l.dtype));
  PF_MPI_CHECK(MPI_Bcast(a.l.recv, a.n, a.t, a.l.root, a.comm));
}
PF_REGISTER_MPI_CALL("broadcast", .run = broadcast);

void reduce(const MpiArgs& a) {
  const bool root = a.rank == a.l.root;
  PF_MPI_CHECK(MPI_Reduce(a.l.inPlace && root ? MPI_IN_PLACE : a.l.send, a.l.recv, a.n, a.t, a.op, a.l.root, a.comm));
  if (a.l.op == RedOp::kAvg && root) divideInPlace(a.l.dtype, a.l.recv, a.l.count, a.size);
}
PF_REGISTER_MPI_CALL("reduce", .run = reduce);

void allToAll(const MpiArgs& a) {
  if (a.l.inPlace)
    PF_MPI_CHECK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a.l.recv, a.n, a.t, a.comm));
  else
    PF_MPI_CHECK(MPI_Alltoall(a.l.send, a.n, a.t, a.l.recv, a.n, a.t, a.comm));
}
PF_REGISTER_MPI_CALL("alltoall", .run = allToAll);

void sendRecv(const MpiArgs& a) {
  // A ring shift: send to the next rank, receive from the previous one.
  int next = (a.rank + 1) % a.size, prev = (a.rank + a.size - 1) % a.size;
  if (a.l.inPlace)
    PF_MPI_CHECK(MPI_Sendrecv_replace(a.l.recv, a.n, a.t, next, 0, prev, 0, a.comm, MPI_STATUS_IGNORE));
  else
    PF_MPI_CHECK(MPI_Sendrecv(a.l.send, a.n, a.t, next, 0, a.l.recv, a.n, a.t, prev, 0, a.comm, MPI_STATUS_IGNORE));
}
PF_REGISTER_MPI_CALL("sendrecv", .run = sendRecv);

}  // namespace
}  // namespace pf::collectives

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL call for each collective, one block per collective keyed by its registry key
// (descriptors/<key>.cpp). In place, the driver passes send and recv inside the one buffer at the offsets
// the descriptor's Layout names, so the calls themselves do not distinguish the two placements.
#include "nccl_calls.hpp"

#include "nccl_check.hpp"

namespace pf::collectives {
namespace {

void allReduce(const NcclArgs& a) {
  PF_NCCL_CHECK(ncclAllReduce(a.l.send, a.l.recv, a.l.count, a.t, a.op, a.comm, a.stream));
}
PF_REGISTER_NCCL_CALL("all_reduce", .run = allReduce);

void allGather(const NcclArgs& a) {
  PF_NCCL_CHECK(ncclAllGather(a.l.send, a.l.recv, a.l.count, a.t, a.comm, a.stream));
}
PF_REGISTER_NCCL_CALL("all_gather", .run = allGather);

void reduceScatter(const NcclArgs& a) {
  PF_NCCL_CHECK(ncclReduceScatter(a.l.send, a.l.recv, a.l.count, a.t, a.op, a.comm, a.stream));
}
PF_REGISTER_NCCL_CALL("reduce_scatter", .run = reduceScatter);

void broadcast(const NcclArgs& a) {
  PF_NCCL_CHECK(ncclBroadcast(a.l.send, a.l.recv, a.l.count, a.t, a.l.root, a.comm, a.stream));
}
PF_REGISTER_NCCL_CALL("broadcast", .run = broadcast);

void reduce(const NcclArgs& a) {
  PF_NCCL_CHECK(ncclReduce(a.l.send, a.l.recv, a.l.count, a.t, a.op, a.l.root, a.comm, a.stream));
}
PF_REGISTER_NCCL_CALL("reduce", .run = reduce);

void allToAll(const NcclArgs& a) {
  // Grouped point-to-point, the form nccl-tests' alltoall uses and every NCCL since 2.7 supports.
  const size_t block = a.l.count * a.es;
  PF_NCCL_CHECK(ncclGroupStart());
  for (int r = 0; r < a.size; ++r) {
    PF_NCCL_CHECK(ncclSend(static_cast<const char*>(a.l.send) + r * block, a.l.count, a.t, r, a.comm, a.stream));
    PF_NCCL_CHECK(ncclRecv(static_cast<char*>(a.l.recv) + r * block, a.l.count, a.t, r, a.comm, a.stream));
  }
  PF_NCCL_CHECK(ncclGroupEnd());
}
PF_REGISTER_NCCL_CALL(
    "alltoall", .run = allToAll, .groupedSendElements = [](size_t count, int ranks) { return count * ranks; });

void sendRecv(const NcclArgs& a) {
  // A ring shift: send to the next rank, receive from the previous one.
  PF_NCCL_CHECK(ncclGroupStart());
  PF_NCCL_CHECK(ncclSend(a.l.send, a.l.count, a.t, (a.rank + 1) % a.size, a.comm, a.stream));
  PF_NCCL_CHECK(ncclRecv(a.l.recv, a.l.count, a.t, (a.rank + a.size - 1) % a.size, a.comm, a.stream));
  PF_NCCL_CHECK(ncclGroupEnd());
}
PF_REGISTER_NCCL_CALL(
    "sendrecv", .run = sendRecv, .groupedSendElements = [](size_t count, int) { return count; });

}  // namespace
}  // namespace pf::collectives

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The MPI backend: host buffers, blocking MPI collectives on the bootstrap's communicator. It measures what
// the MPI library does between these ranks (shared memory within a node, its BTL/PML across nodes), which is
// what a CPU job or the host side of a GPU job sees.
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include "../backend.hpp"
#include "mpi_bootstrap.hpp"
#include "mpi_types.hpp"
#include "pf/timer.hpp"

namespace pf::collectives {
namespace {

class MpiBackend final : public Backend {
 public:
  void init(Bootstrap& boot, const LauncherEnv&) override {
    auto* mpi = dynamic_cast<MpiBootstrap*>(&boot);
    if (!mpi) throw UsageError("--backend mpi needs the MPI bootstrap; this run was started without MPI");
    comm_ = mpi->comm();
    rank_ = mpi->rank();
    size_ = mpi->size();
    types_ = std::make_unique<MpiTypes>();
  }

  bool supports(DataType, RedOp) const override { return true; }

  uint64_t memoryAvailable() const override {
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kb = 0;
    std::string unit;
    while (in >> key >> kb >> unit)
      if (key == "MemAvailable:") return kb * 1024;
    return UINT64_MAX;
  }

  void* allocate(size_t bytes) override {
    // Page alignment, as osu_allreduce and the bare loop in bench/ use: Open MPI's shared-memory copies run
    // measurably slower from a buffer that starts mid-page (up to 10% at 16 KiB here, docs/performance.md).
    void* p = std::aligned_alloc(kPage, std::max<size_t>(((bytes + kPage - 1) / kPage) * kPage, kPage));
    if (!p) throw SystemError(fmt::format("cannot allocate {} bytes of host memory", bytes));
    return p;
  }
  void release(void* p) noexcept override { std::free(p); }
  void toDevice(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  void toHost(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }

  void launchRepeated(const Launch& l, int times) override {
    // The all-reduce loop with everything resolved once: per call it is exactly a bare MPI_Allreduce loop.
    // (Measured: the per-call virtual dispatch and type switch cost ~10 ns, 2% of a 0.5 us shared-memory
    // all-reduce.) Other collectives and avg keep the general path.
    if (l.kind != CollKind::kAllReduce || l.op == RedOp::kAvg || l.count > static_cast<size_t>(INT_MAX)) {
      Backend::launchRepeated(l, times);
      return;
    }
    const int n = static_cast<int>(l.count);
    const MPI_Datatype t = types_->type(l.dtype);
    const MPI_Op op = types_->op(l.dtype, l.op);
    const void* in = l.inPlace ? MPI_IN_PLACE : l.send;
    for (int i = 0; i < times; ++i) PF_MPI_CHECK(MPI_Allreduce(in, l.recv, n, t, op, comm_));
  }

  void launch(const Launch& l) override {
    if (l.count > static_cast<size_t>(INT_MAX))
      throw UsageError(fmt::format("{} elements exceed MPI's int count; lower --maxbytes", l.count));
    const int n = static_cast<int>(l.count);
    MPI_Datatype t = types_->type(l.dtype);
    MPI_Op op = types_->op(l.dtype, l.op);
    const void* in = l.inPlace ? MPI_IN_PLACE : l.send;
    switch (l.kind) {
      case CollKind::kAllReduce:
        PF_MPI_CHECK(MPI_Allreduce(in, l.recv, n, t, op, comm_));
        if (l.op == RedOp::kAvg) divideInPlace(l.dtype, l.recv, l.count, size_);
        break;
      case CollKind::kAllGather:
        if (l.inPlace)
          PF_MPI_CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, l.recv, n, t, comm_));
        else
          PF_MPI_CHECK(MPI_Allgather(l.send, n, t, l.recv, n, t, comm_));
        break;
      case CollKind::kReduceScatter:
        if (l.inPlace) {
          // MPI leaves the in-place result at the start of the buffer, NCCL at this rank's block; move it so
          // both backends are verified against the same layout.
          void* base = const_cast<void*>(l.send);
          PF_MPI_CHECK(MPI_Reduce_scatter_block(MPI_IN_PLACE, base, n, t, op, comm_));
          if (base != l.recv) std::memmove(l.recv, base, l.count * sizeOf(l.dtype));
        } else {
          PF_MPI_CHECK(MPI_Reduce_scatter_block(l.send, l.recv, n, t, op, comm_));
        }
        if (l.op == RedOp::kAvg) divideInPlace(l.dtype, l.recv, l.count, size_);
        break;
      case CollKind::kBroadcast:
        // Out of place the root's data must also reach its own receive buffer, as ncclBroadcast does.
        if (rank_ == l.root && l.send != l.recv) std::memcpy(l.recv, l.send, l.count * sizeOf(l.dtype));
        PF_MPI_CHECK(MPI_Bcast(l.recv, n, t, l.root, comm_));
        break;
      case CollKind::kReduce:
        PF_MPI_CHECK(MPI_Reduce(l.inPlace && rank_ == l.root ? MPI_IN_PLACE : l.send, l.recv, n, t, op, l.root, comm_));
        if (l.op == RedOp::kAvg && rank_ == l.root) divideInPlace(l.dtype, l.recv, l.count, size_);
        break;
      case CollKind::kAllToAll:
        if (l.inPlace)
          PF_MPI_CHECK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, l.recv, n, t, comm_));
        else
          PF_MPI_CHECK(MPI_Alltoall(l.send, n, t, l.recv, n, t, comm_));
        break;
      case CollKind::kSendRecv: {
        int next = (rank_ + 1) % size_, prev = (rank_ + size_ - 1) % size_;
        if (l.inPlace)
          PF_MPI_CHECK(MPI_Sendrecv_replace(l.recv, n, t, next, 0, prev, 0, comm_, MPI_STATUS_IGNORE));
        else
          PF_MPI_CHECK(MPI_Sendrecv(l.send, n, t, next, 0, l.recv, n, t, prev, 0, comm_, MPI_STATUS_IGNORE));
        break;
      }
    }
  }

  void complete() override {}  // MPI collectives above are blocking

  double timeOne(const Launch& l) override {
    Timer t;
    launch(l);
    return t.micros();
  }

  Json info() const override {
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int len = 0;
    MPI_Get_library_version(version, &len);
    std::string v(version, static_cast<size_t>(len));
    if (auto nl = v.find_first_of("\n,"); nl != std::string::npos) v = v.substr(0, nl);
    return Json{{"backend", "mpi"}, {"library", v}, {"buffers", "host"}};
  }

 private:
  static constexpr size_t kPage = 4096;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::unique_ptr<MpiTypes> types_;
};

PF_REGISTER_BACKEND(MpiBackend, "mpi");

}  // namespace
}  // namespace pf::collectives

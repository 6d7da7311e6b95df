// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The MPI backend: host buffers, blocking MPI collectives on the bootstrap's communicator. It measures what
// the MPI library does between these ranks (shared memory within a node, its BTL/PML across nodes), which is
// what a CPU job or the host side of a GPU job sees. The MPI call for each collective is in mpi_calls.cpp.
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
#include "mpi_calls.hpp"
#include "mpi_types.hpp"
#include "pf/host_buffer.hpp"
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
  std::vector<std::string> collectives() const override { return CallTable<MpiCall>::instance().keys(); }
  void select(const std::string& collective) override {
    call_ = &CallTable<MpiCall>::instance().get(collective, key());
  }

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
    // With --huge-pages, large buffers on 2 MiB pages (pf/host_buffer.hpp says why).
    void* p = allocateHostBuffer(bytes, hugePages_);
    if (!p) throw SystemError(fmt::format("cannot allocate {} bytes of host memory", bytes));
    return p;
  }
  void release(void* p) noexcept override { std::free(p); }
  void toDevice(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  void toHost(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }

  void launchRepeated(const Launch& l, int times) override {
    // Where the collective has a bare loop (all_reduce), the timed loop is exactly a loop of library calls.
    // avg (a second step per call) and counts beyond MPI's int (launch() rejects them) keep the general path.
    if (!call_ || !call_->loop || l.op == RedOp::kAvg || l.count > static_cast<size_t>(INT_MAX)) {
      Backend::launchRepeated(l, times);
      return;
    }
    call_->loop(args(l), times);
  }

  void launch(const Launch& l) override {
    if (l.count > static_cast<size_t>(INT_MAX))
      throw UsageError(fmt::format("{} elements exceed MPI's int count; lower --maxbytes", l.count));
    call_->run(args(l));
  }

  void complete() override {}  // MPI collectives above are blocking

  double timeOne(const Launch& l) override {
    Timer t;
    launch(l);
    return t.micros();
  }

  Json info() const override {
    std::string v = mpiLibraryVersion();
    if (auto comma = v.find(','); comma != std::string::npos) v.resize(comma);
    return Json{{"backend", "mpi"}, {"library", v}, {"buffers", "host"}};
  }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::unique_ptr<MpiTypes> types_;
  const MpiCall* call_ = nullptr;  // from select(): the selected collective's entry in mpi_calls.cpp

  MpiArgs args(const Launch& l) const {
    PF_CHECK(call_ != nullptr) << "launch before select()";
    return MpiArgs{l,
                   comm_,
                   rank_,
                   size_,
                   static_cast<int>(l.count),
                   types_->type(l.dtype),
                   types_->op(l.dtype, l.op),
                   l.inPlace ? MPI_IN_PLACE : l.send};
  }
};

PF_REGISTER_BACKEND(MpiBackend, "mpi");

}  // namespace
}  // namespace pf::collectives

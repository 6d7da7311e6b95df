// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL backend: device buffers, NCCL collectives on one CUDA stream, one GPU per rank chosen by the local
// rank. The NCCL unique id travels over the Bootstrap (MPI in practice), as nccl-tests does with MPI_Bcast.
// Launches are asynchronous; complete() waits for the stream while polling ncclCommGetAsyncError, so an
// asynchronous NCCL failure (a dead peer, a network error) surfaces as an error instead of a hang. The NCCL
// call for each collective is in nccl_calls.cpp.
//
// Built into preflight-gpu.so (gpu/CMakeLists.txt); `preflight` registers "nccl" in nccl_backend_proxy.cpp.
#include "nccl_backend.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <nccl.h>

#include <exception>
#include <string>
#include <vector>

#include "nccl_calls.hpp"
#include "nccl_check.hpp"
#include "pf/cuda_check.hpp"

namespace pf::collectives {
namespace {

ncclDataType_t ncclType(DataType t) {
  switch (t) {
    case DataType::kInt8: return ncclInt8;
    case DataType::kUint8: return ncclUint8;
    case DataType::kInt32: return ncclInt32;
    case DataType::kUint32: return ncclUint32;
    case DataType::kInt64: return ncclInt64;
    case DataType::kUint64: return ncclUint64;
    case DataType::kHalf: return ncclFloat16;
    case DataType::kBfloat16: return ncclBfloat16;
    case DataType::kFloat: return ncclFloat32;
    case DataType::kDouble: return ncclFloat64;
  }
  return ncclFloat32;
}

ncclRedOp_t ncclOp(RedOp op) {
  switch (op) {
    case RedOp::kProd: return ncclProd;
    case RedOp::kMax: return ncclMax;
    case RedOp::kMin: return ncclMin;
    case RedOp::kAvg: return ncclAvg;
    default: return ncclSum;
  }
}

class NcclBackend final : public Backend {
 public:
  ~NcclBackend() override {
    comm_.end();  // first: an aborted communicator lets the stream's kernels end
    if (scratch_) PF_CUDA_WARN(cudaFree(scratch_));
    if (start_) PF_CUDA_WARN(cudaEventDestroy(start_));
    if (stop_) PF_CUDA_WARN(cudaEventDestroy(stop_));
    if (stream_) PF_CUDA_WARN(cudaStreamDestroy(stream_));
  }

  void init(Bootstrap& boot, const LauncherEnv& env) override {
    int count = 0;
    if (std::string why = noUsableCudaDevice(count); !why.empty())
      throw CudaError(
          fmt::format("--backend nccl needs a GPU, and none is usable on {} ({}); use --backend mpi on CPU-only nodes",
                      hostName(), why));
    device_ = env.local_rank % count;
    PF_CUDA_CHECK(cudaSetDevice(device_));
    PF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    PF_CUDA_CHECK(cudaEventCreate(&start_));
    PF_CUDA_CHECK(cudaEventCreate(&stop_));
    const ncclUniqueId id = shareNcclUniqueId(boot);
    rank_ = boot.rank();
    size_ = boot.size();
    comm_.init(size_, id, rank_);
    PF_NCCL_CHECK(ncclGetVersion(&ncclVersion_));
  }

  // ncclAvg and ncclBfloat16 came with NCCL 2.10; the library the node loads may be older than the headers
  // built against, and NCCL would then reject the launch and end the sweep: skip them (the result says so).
  bool supports(DataType t, RedOp op) const override {
    return (op != RedOp::kAvg && t != DataType::kBfloat16) || ncclVersion_ >= 21000;
  }
  std::vector<std::string> collectives() const override { return CallTable<NcclCall>::instance().keys(); }
  void select(const std::string& collective) override {
    call_ = &CallTable<NcclCall>::instance().get(collective, key());
  }

  uint64_t memoryAvailable() const override {
    size_t freeBytes = 0, totalBytes = 0;
    PF_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    return freeBytes;
  }

  void* allocate(size_t bytes) override {
    void* p = nullptr;
    PF_CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
  }
  // cudaFree waits for the device: while an error leaves (a launch that NCCL refused behind queued kernels that
  // wait on peers), the communicator is aborted first so those kernels end. waitNcclStream has done so already
  // for an asynchronous error.
  void release(void* p) noexcept override {
    if (std::uncaught_exceptions() > exceptionsAtStart_) comm_.abort();
    PF_CUDA_WARN(cudaFree(p));
  }
  // On NCCL's stream, not with cudaMemcpy: the legacy stream does not order with a non-blocking one, and a
  // pageable host-to-device cudaMemcpy may return before its DMA lands, so NCCL could read the poison pattern.
  void toDevice(void* dst, const void* src, size_t bytes) override {
    PF_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_));
    waitNcclStream(stream_, comm_);
  }
  void toHost(void* dst, const void* src, size_t bytes) override {
    PF_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_));
    waitNcclStream(stream_, comm_);
  }

  void launch(const Launch& l) override {
    PF_CHECK(call_ != nullptr) << "launch before select()";
    Launch staged = l;
    if (l.inPlace && call_->groupedSendElements) {
      // One buffer both sent and received in one group is invalid in NCCL (wrong elements, now and then):
      // send from a copy. The copy is on the same stream, so it is inside the timed interval (docs/sweep.md).
      const size_t bytes = call_->groupedSendElements(l.count, size_) * sizeOf(l.dtype);
      staged.send = scratch(bytes);
      PF_CUDA_CHECK(cudaMemcpyAsync(const_cast<void*>(staged.send), l.send, bytes, cudaMemcpyDeviceToDevice, stream_));
    }
    call_->run(NcclArgs{staged, comm_.get(), stream_, rank_, size_, ncclType(l.dtype), ncclOp(l.op), sizeOf(l.dtype)});
  }

  void complete() override { waitNcclStream(stream_, comm_); }

  double timeOne(const Launch& l) override {
    PF_CUDA_CHECK(cudaEventRecord(start_, stream_));
    launch(l);
    PF_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    complete();
    float ms = 0;
    PF_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) * 1e3;
  }

  Json info() const override {
    int nccl = 0, runtime = 0, driver = 0;
    ncclGetVersion(&nccl);
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, device_);
    char bus[32] = {};
    cudaDeviceGetPCIBusId(bus, sizeof bus, device_);
    return Json{{"backend", "nccl"},
                {"library", fmt::format("NCCL {}.{}.{}", nccl / 10000, (nccl / 100) % 100, nccl % 100)},
                {"nccl_version_code", nccl},
                {"cuda_runtime", runtime},
                {"cuda_driver", driver},
                {"device", device_},
                {"device_name", prop.name},
                {"pci_bus_id", bus},
                {"buffers", "device"}};
  }

 private:
  /// A device buffer of at least `bytes`, kept for the next launches (grown, never shrunk, freed at the end).
  void* scratch(size_t bytes) {
    if (bytes > scratchBytes_) {
      waitNcclStream(stream_, comm_);  // the old buffer may still be read by queued work
      if (scratch_) PF_CUDA_CHECK(cudaFree(scratch_));
      scratch_ = nullptr;
      PF_CUDA_CHECK(cudaMalloc(&scratch_, bytes));
      scratchBytes_ = bytes;
    }
    return scratch_;
  }

  cudaStream_t stream_ = nullptr;
  void* scratch_ = nullptr;
  size_t scratchBytes_ = 0;
  int exceptionsAtStart_ = std::uncaught_exceptions();
  int ncclVersion_ = 0;  ///< ncclGetVersion() of the library loaded: 22809 = 2.28.9
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  int device_ = 0, rank_ = 0, size_ = 1;
  NcclComm comm_;                   ///< ended first in the destructor (NcclComm::end)
  const NcclCall* call_ = nullptr;  // from select(): the selected collective's entry in nccl_calls.cpp
};

}  // namespace

std::unique_ptr<Backend> makeNcclBackend() { return std::make_unique<NcclBackend>(); }

}  // namespace pf::collectives

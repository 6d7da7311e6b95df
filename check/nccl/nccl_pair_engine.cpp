// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL pair engine: device buffers and ncclSend/ncclRecv between the GPUs of two nodes' leader ranks, so
// the pair matrix measures the path a training job uses (GPU, PCIe, NIC, GPUDirect RDMA when enabled) rather
// than host memory. Only the leaders (each host's lowest rank) join the NCCL communicator: the other ranks
// would need GPUs of their own, and two ranks on one GPU make ncclCommInitRank fail.
//
// Timing follows the MPI engine's contract (pair_engine.hpp). Because a receiver cannot post a receive of
// unknown count, each bandwidth burst is announced: the sender first sends the burst's message count (0 ends the
// direction), so the sender alone still decides when the time cap is reached. Every wait polls
// ncclCommGetAsyncError, so a dead peer or a network error becomes an error instead of a hang.
#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nccl.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "../pair_engine.hpp"
#include "nccl/nccl_check.hpp"
#include "pf/cuda_check.hpp"
#include "pf/error.hpp"
#include "pf/stats.hpp"
#include "pf/timer.hpp"
#include "pf/units.hpp"

namespace pf::check {
namespace {

constexpr int kLatWarmup = 5;

class NcclPairEngine final : public PairEngine {
 public:
  ~NcclPairEngine() override {
    if (comm_) ncclCommDestroy(comm_);
    if (buf_) PF_CUDA_WARN(cudaFree(buf_));
    if (ctl_) PF_CUDA_WARN(cudaFree(ctl_));
    if (stream_) PF_CUDA_WARN(cudaStreamDestroy(stream_));
  }

  void init(Bootstrap& boot, const LauncherEnv& env) override {
    // Leaders in rank order; a world rank's index among them is its NCCL rank.
    const std::vector<std::string> hosts = boot.allGather(hostName());
    std::set<std::string> seen;
    for (int r = 0; r < static_cast<int>(hosts.size()); ++r)
      if (seen.insert(hosts[static_cast<size_t>(r)]).second) {
        const int next = static_cast<int>(ncclRankOf_.size());
        ncclRankOf_[r] = next;
      }
    const bool leader = ncclRankOf_.count(boot.rank()) != 0;

    int count = 0;
    std::string noGpu;  // on a leader without a GPU: "<host> (<reason>)"
    if (leader) {
      cudaError_t rc = cudaGetDeviceCount(&count);
      if (rc != cudaSuccess || count == 0)
        noGpu = fmt::format("{} ({})", hostName(), rc == cudaSuccess ? "0 devices" : cudaGetErrorString(rc));
    }
    // Every rank learns which leaders lack a GPU, so all fail together with one message instead of a hang.
    std::vector<std::string> missing;
    for (std::string& s : boot.allGather(noGpu))
      if (!s.empty()) missing.push_back(std::move(s));
    if (!missing.empty())
      throw CudaError(fmt::format("--engine nccl needs a GPU on every node's first rank; none on {}. Use "
                                  "--engine mpi on CPU-only nodes", fmt::join(missing, ", ")));
    const ncclUniqueId id = shareNcclUniqueId(boot);
    if (!leader) return;
    device_ = env.local_rank % count;
    PF_CUDA_CHECK(cudaSetDevice(device_));
    PF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    PF_CUDA_CHECK(cudaMalloc(&ctl_, 2 * sizeof(double)));
    PF_NCCL_CHECK(ncclCommInitRank(&comm_, static_cast<int>(ncclRankOf_.size()), id, ncclRankOf_.at(boot.rank())));
    int version = 0;
    PF_NCCL_CHECK(ncclGetVersion(&version));
    cudaDeviceProp prop{};
    PF_CUDA_CHECK(cudaGetDeviceProperties(&prop, device_));
    info_ = Json{{"engine", "nccl"}, {"nccl_version", version}, {"buffers", "device"},
                 {"device", prop.name}, {"pci_bus_id", fmt::format("{:04x}:{:02x}:{:02x}.0", prop.pciDomainID,
                                                                   prop.pciBusID, prop.pciDeviceID)}};
  }

  PairSample measure(int peerRank, bool initiator, const PairOptions& o) override {
    const int peer = ncclRankOf_.at(peerRank);
    const size_t need = std::max<uint64_t>(o.bwBytes, o.latBytes);
    if (need > bufBytes_) {
      if (buf_) PF_CUDA_CHECK(cudaFree(buf_));
      PF_CUDA_CHECK(cudaMalloc(&buf_, need));
      PF_CUDA_CHECK(cudaMemset(buf_, initiator ? 1 : 2, need));
      bufBytes_ = need;
    }
    PairSample s;
    s.latUs = latency(peer, initiator, o);
    PairOptions warm = o;
    warm.bwIters = 1;
    warm.bwTrials = 1;
    stream(peer, initiator, warm);
    stream(peer, !initiator, warm);
    auto out = stream(peer, initiator, o);
    auto in = stream(peer, !initiator, o);
    // The responder measured the reverse direction; it sends its figure and message count to the initiator.
    double figures[2] = {in.gbps, static_cast<double>(in.messages)};
    if (!initiator) {
      PF_CUDA_CHECK(cudaMemcpyAsync(ctl_, figures, sizeof figures, cudaMemcpyHostToDevice, stream_));
      PF_NCCL_CHECK(ncclSend(ctl_, 2, ncclFloat64, peer, comm_, stream_));
      wait();
      return PairSample{};
    }
    PF_NCCL_CHECK(ncclRecv(ctl_, 2, ncclFloat64, peer, comm_, stream_));
    PF_CUDA_CHECK(cudaMemcpyAsync(figures, ctl_, sizeof figures, cudaMemcpyDeviceToHost, stream_));
    wait();
    s.bwOutGbps = out.gbps;
    s.bwMessagesOut = out.messages;
    s.bwInGbps = figures[0];
    s.bwMessagesIn = static_cast<int>(figures[1]);
    return s;
  }

  Json info() const override { return info_; }

 private:
  struct Streamed {
    double gbps = 0;
    int messages = 0;
  };

  void wait() { waitNcclStream(stream_, comm_); }

  // Announces (sender) or learns (receiver) the next burst's message count; 0 ends the direction.
  int announce(int peer, bool sending, int count) {
    double c = count;
    if (sending) {
      PF_CUDA_CHECK(cudaMemcpyAsync(ctl_, &c, sizeof c, cudaMemcpyHostToDevice, stream_));
      PF_NCCL_CHECK(ncclSend(ctl_, 1, ncclFloat64, peer, comm_, stream_));
    } else {
      PF_NCCL_CHECK(ncclRecv(ctl_, 1, ncclFloat64, peer, comm_, stream_));
      PF_CUDA_CHECK(cudaMemcpyAsync(&c, ctl_, sizeof c, cudaMemcpyDeviceToHost, stream_));
    }
    wait();
    return static_cast<int>(c);
  }

  Streamed stream(int peer, bool sending, const PairOptions& o) {
    Streamed r;
    Timer total;
    for (int trial = 0;; ++trial) {
      int count = 0;
      if (sending) count = (trial < o.bwTrials && (trial == 0 || total.seconds() < o.maxSecondsPerDirection))
                               ? o.bwIters : 0;
      count = announce(peer, sending, count);
      if (count == 0) return r;
      Timer t;
      PF_NCCL_CHECK(ncclGroupStart());
      for (int i = 0; i < count; ++i) {
        if (sending)
          PF_NCCL_CHECK(ncclSend(buf_, o.bwBytes, ncclInt8, peer, comm_, stream_));
        else
          PF_NCCL_CHECK(ncclRecv(buf_, o.bwBytes, ncclInt8, peer, comm_, stream_));
      }
      PF_NCCL_CHECK(ncclGroupEnd());
      wait();
      r.gbps = std::max(r.gbps, gbPerSecond(static_cast<double>(o.bwBytes) * count, t.seconds()));
      r.messages += count;
    }
  }

  double latency(int peer, bool initiator, const PairOptions& o) {
    std::vector<double> halves;
    for (int i = 0; i < kLatWarmup + o.latIters; ++i) {
      Timer t;
      for (int leg = 0; leg < 2; ++leg) {
        if ((leg == 0) == initiator)
          PF_NCCL_CHECK(ncclSend(buf_, o.latBytes, ncclInt8, peer, comm_, stream_));
        else
          PF_NCCL_CHECK(ncclRecv(buf_, o.latBytes, ncclInt8, peer, comm_, stream_));
        wait();
      }
      if (initiator && i >= kLatWarmup) halves.push_back(t.micros() / 2);
    }
    return initiator ? stats::median(halves) : 0;
  }

  std::map<int, int> ncclRankOf_;  ///< world rank -> NCCL rank, leaders only
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  void* buf_ = nullptr;
  size_t bufBytes_ = 0;
  double* ctl_ = nullptr;
  int device_ = 0;
  Json info_ = Json{{"engine", "nccl"}, {"buffers", "device"}, {"role", "not a leader: no GPU used"}};
};

PF_REGISTER_PAIR_ENGINE(NcclPairEngine, "nccl");

}  // namespace
}  // namespace pf::check

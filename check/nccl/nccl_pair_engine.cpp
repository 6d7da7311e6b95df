// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL pair engine: device buffers and ncclSend/ncclRecv between the GPUs of two nodes' leader ranks, so
// the pair matrix measures the path a training job uses (GPU, PCIe, NIC, GPUDirect RDMA when enabled) rather
// than host memory. Only the leaders (each host's lowest rank) join the NCCL communicator: the other ranks
// would need GPUs of their own, and two ranks on one GPU make ncclCommInitRank fail.
//
// The protocol (pair_protocol.hpp) drives the transport: posted sends and receives gather in one NCCL group
// until complete() ends it and waits for the stream, so a burst's messages go out as one group; the burst's
// clock stops on the receiver's acknowledgement (sendCompletesBeforeDelivery), less the acknowledgement's own trip,
// which the protocol measures. Control values travel through a small device buffer. Every wait polls
// ncclCommGetAsyncError, so a dead peer or a network error becomes an error instead of a hang; a failed wait aborts
// the communicator before the error leaves (waitNcclStream).
//
// Built into preflight-gpu.so (gpu/CMakeLists.txt); `preflight` registers "nccl" in nccl_engine_proxy.cpp.
#include "nccl_pair_engine.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nccl.h>

#include <algorithm>
#include <exception>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "nccl/nccl_check.hpp"
#include "pf/cuda_check.hpp"
#include "pf/error.hpp"
#include "stdout_capture.hpp"

namespace pf::check {
namespace {

constexpr size_t kMaxValues = 2;             ///< doubles in one control message (the responder's figures)
constexpr int kFirstDiagnosingNccl = 23100;  ///< NCCL 2.31.0 as ncclGetVersion codes it (major*10000+minor*100)

class NcclPairEngine final : public PairEngine {
 public:
  ~NcclPairEngine() override {
    comm_.end();  // first: an aborted communicator lets the stream's kernels end
    if (buf_) PF_CUDA_WARN(cudaFree(buf_));
    if (ctl_) PF_CUDA_WARN(cudaFree(ctl_));
    if (ctlHost_) PF_CUDA_WARN(cudaFreeHost(ctlHost_));
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
      if (std::string why = noUsableCudaDevice(count); !why.empty()) noGpu = fmt::format("{} ({})", hostName(), why);
    }
    // Every rank learns which leaders lack a GPU, so all fail together with one message instead of a hang.
    std::vector<std::string> missing;
    for (std::string& s : boot.allGather(noGpu))
      if (!s.empty()) missing.push_back(std::move(s));
    if (!missing.empty())
      throw CudaError(
          fmt::format("--engine nccl needs a GPU on every node's first rank; none on {}. Use "
                      "--engine mpi on CPU-only nodes",
                      fmt::join(missing, ", ")));
    const ncclUniqueId id = shareNcclUniqueId(boot);
    if (!leader) return;
    device_ = env.local_rank % count;
    PF_CUDA_CHECK(cudaSetDevice(device_));
    PF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    PF_CUDA_CHECK(cudaMalloc(&ctl_, kMaxValues * sizeof(double)));
    PF_CUDA_CHECK(cudaMallocHost(&ctlHost_, kMaxValues * sizeof(double)));
    // NCCL 2.31 and later verify every GPU pair's path at init when asked (NCCL_RUN_DIAGNOSTICS) and print the
    // report on NCCL rank 0's standard output: the check asks, unless the user set the variable, and keeps the
    // report's lines for its findings (nccl_diag.hpp); everything else NCCL printed is passed through.
    int version = 0;
    PF_NCCL_CHECK(ncclGetVersion(&version));
    const bool diagnose = version >= kFirstDiagnosingNccl;
    if (diagnose) ::setenv("NCCL_RUN_DIAGNOSTICS", "1", /*overwrite=*/0);
    std::string printed;
    {
      std::optional<StdoutCapture> capture;
      if (diagnose && ncclRankOf_.at(boot.rank()) == 0) capture.emplace();
      comm_.init(static_cast<int>(ncclRankOf_.size()), id, ncclRankOf_.at(boot.rank()));
      if (capture) printed = capture->finish();
    }
    Json diagnostics = Json::array();
    for (size_t at = 0; at < printed.size();) {
      size_t end = printed.find('\n', at);
      end = end == std::string::npos ? printed.size() : end + 1;
      const std::string line = printed.substr(at, end - at);
      if (line.find("NCCL DIAG") != std::string::npos)
        diagnostics.push_back(line.substr(0, line.find_last_not_of("\r\n") + 1));
      else
        std::fwrite(line.data(), 1, line.size(), stdout);
      at = end;
    }
    cudaDeviceProp prop{};
    PF_CUDA_CHECK(cudaGetDeviceProperties(&prop, device_));
    info_ =
        Json{{"engine", "nccl"},
             {"nccl_version", version},
             {"buffers", "device"},
             {"device", prop.name},
             {"pci_bus_id", fmt::format("{:04x}:{:02x}:{:02x}.0", prop.pciDomainID, prop.pciBusID, prop.pciDeviceID)}};
    if (diagnose) info_["nccl_diagnostics"] = std::move(diagnostics);  // rank 0's: NCCL prints the report there
  }

  Json info() const override { return info_; }

  void prepare(int, uint64_t bytes, bool initiator) override {
    if (bytes <= bufBytes_) return;
    if (buf_) PF_CUDA_CHECK(cudaFree(buf_));  // the last burst was waited for (complete)
    PF_CUDA_CHECK(cudaMalloc(&buf_, bytes));
    PF_CUDA_CHECK(cudaMemset(buf_, initiator ? 1 : 2, bytes));
    bufBytes_ = bytes;
  }
  void postSend(int peer, uint64_t bytes) override {
    group();
    PF_NCCL_CHECK(ncclSend(buf_, bytes, ncclInt8, ncclRankOf_.at(peer), comm_.get(), stream_));
  }
  void postRecv(int peer, uint64_t bytes) override {
    group();
    PF_NCCL_CHECK(ncclRecv(buf_, bytes, ncclInt8, ncclRankOf_.at(peer), comm_.get(), stream_));
  }
  void complete() override {
    if (grouped_) {
      grouped_ = false;
      PF_NCCL_CHECK(ncclGroupEnd());
    }
    wait();
  }
  // A completed ncclSend only says its buffer may be reused: over the network the last chunks can still be in the
  // proxy's or the NIC's hands. The burst's clock stops on the receiver's acknowledgement, as with MPI.
  bool sendCompletesBeforeDelivery() const override { return true; }

  void sendValues(int peer, std::span<const double> v) override {
    PF_CHECK(v.size() <= kMaxValues) << v.size() << " control values";
    // Through pinned memory: a copy from or to pageable memory blocks until the stream reaches it, outside the
    // polling wait, so a dead peer would hang it instead of failing.
    std::copy(v.begin(), v.end(), ctlHost_);
    PF_CUDA_CHECK(cudaMemcpyAsync(ctl_, ctlHost_, v.size_bytes(), cudaMemcpyHostToDevice, stream_));
    PF_NCCL_CHECK(ncclSend(ctl_, v.size(), ncclFloat64, ncclRankOf_.at(peer), comm_.get(), stream_));
    wait();
  }
  void recvValues(int peer, std::span<double> v) override {
    PF_CHECK(v.size() <= kMaxValues) << v.size() << " control values";
    PF_NCCL_CHECK(ncclRecv(ctl_, v.size(), ncclFloat64, ncclRankOf_.at(peer), comm_.get(), stream_));
    PF_CUDA_CHECK(cudaMemcpyAsync(ctlHost_, ctl_, v.size_bytes(), cudaMemcpyDeviceToHost, stream_));
    wait();
    std::copy(ctlHost_, ctlHost_ + v.size(), v.begin());
  }

 private:
  void wait() { waitNcclStream(stream_, comm_); }
  // Opens the group the posted operations join (a group of one is a plain ncclSend/ncclRecv).
  void group() {
    if (grouped_) return;
    PF_NCCL_CHECK(ncclGroupStart());
    grouped_ = true;
  }

  std::map<int, int> ncclRankOf_;  ///< world rank -> NCCL rank, leaders only
  NcclComm comm_;                  ///< ended first in the destructor; aborted by a failed wait (waitNcclStream)
  cudaStream_t stream_ = nullptr;
  void* buf_ = nullptr;
  size_t bufBytes_ = 0;
  double* ctl_ = nullptr;
  double* ctlHost_ = nullptr;  ///< pinned staging for ctl_
  int device_ = 0;
  bool grouped_ = false;  ///< a group is open: posted operations not yet completed
  Json info_ = Json{{"engine", "nccl"}, {"buffers", "device"}, {"role", "not a leader: no GPU used"}};
};

}  // namespace

std::unique_ptr<PairEngine> makeNcclPairEngine() { return std::make_unique<NcclPairEngine>(); }

}  // namespace pf::check

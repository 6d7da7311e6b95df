// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The p2p probe's measurements: peer access for every ordered GPU pair, and copy bandwidth GPU->GPU and
// host<->GPU. Method as in nvbandwidth's copy-engine tests and cuda-samples' p2pBandwidthLatencyTest: a 64 MiB
// cudaMemcpyPeerAsync / cudaMemcpyAsync (pinned host memory) timed with CUDA events on the source GPU's stream,
// one untimed warm-up, the median of 5 timed copies. GB/s = bytes / time / 1e9.
#include <algorithm>
#include <vector>

#include "gpu_runtime.hpp"
#include "pf/cuda_check.hpp"

namespace pf::probes {
namespace {

constexpr size_t kBytes = 64u << 20;
constexpr int kReps = 5;

/// Median time in ms of `copy` issued on `stream` (which must belong to the current device).
template <typename Copy>
double medianMs(cudaStream_t stream, Copy copy) {
  cudaEvent_t a, b;
  PF_CUDA_CHECK(cudaEventCreate(&a));
  PF_CUDA_CHECK(cudaEventCreate(&b));
  copy();  // warm-up: first-touch mappings and peer setup
  PF_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<float> ms;
  for (int i = 0; i < kReps; ++i) {
    PF_CUDA_CHECK(cudaEventRecord(a, stream));
    copy();
    PF_CUDA_CHECK(cudaEventRecord(b, stream));
    PF_CUDA_CHECK(cudaEventSynchronize(b));
    float t = 0;
    PF_CUDA_CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  PF_CUDA_WARN(cudaEventDestroy(a));
  PF_CUDA_WARN(cudaEventDestroy(b));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

double gbps(double ms) { return ms > 0 ? static_cast<double>(kBytes) / (ms * 1e-3) / 1e9 : 0; }

void measureAll(int n, P2pMeasurement& m) {
  std::vector<void*> buf(n, nullptr);
  std::vector<cudaStream_t> stream(n, nullptr);
  void* host = nullptr;
  PF_CUDA_CHECK(cudaMallocHost(&host, kBytes));
  for (int i = 0; i < n; ++i) {
    PF_CUDA_CHECK(cudaSetDevice(i));
    PF_CUDA_CHECK(cudaMalloc(&buf[i], kBytes));
    PF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream[i], cudaStreamNonBlocking));
  }
  for (int i = 0; i < n; ++i) {
    PF_CUDA_CHECK(cudaSetDevice(i));
    HostLink h{i, {}, {}};
    h.h2dGbps = gbps(medianMs(
        stream[i], [&] { PF_CUDA_CHECK(cudaMemcpyAsync(buf[i], host, kBytes, cudaMemcpyHostToDevice, stream[i])); }));
    h.d2hGbps = gbps(medianMs(
        stream[i], [&] { PF_CUDA_CHECK(cudaMemcpyAsync(host, buf[i], kBytes, cudaMemcpyDeviceToHost, stream[i])); }));
    m.host.push_back(h);
  }
  for (auto& p : m.pairs) {
    PF_CUDA_CHECK(cudaSetDevice(p.src));
    if (p.canAccess) {
      cudaError_t rc = cudaDeviceEnablePeerAccess(p.dst, 0);
      if (rc != cudaSuccess && rc != cudaErrorPeerAccessAlreadyEnabled) PF_CUDA_CHECK(rc);
      cudaGetLastError();
    }
    // Without peer access the driver stages the copy through host memory: still worth knowing how slow.
    p.gbps = gbps(medianMs(stream[p.src], [&] {
      PF_CUDA_CHECK(cudaMemcpyPeerAsync(buf[p.dst], p.dst, buf[p.src], p.src, kBytes, stream[p.src]));
    }));
  }
  for (int i = 0; i < n; ++i) {
    PF_CUDA_WARN(cudaSetDevice(i));
    PF_CUDA_WARN(cudaStreamDestroy(stream[i]));
    PF_CUDA_WARN(cudaFree(buf[i]));
  }
  PF_CUDA_WARN(cudaFreeHost(host));
}

}  // namespace

P2pMeasurement measureP2p(bool measure) {
  P2pMeasurement m;
  m.bytes = measure ? static_cast<long long>(kBytes) : 0;
  const GpuRuntime& g = queryGpuRuntime();
  if (!g.cudaOk) {
    m.error = g.cudaError;
    return m;
  }
  const int n = static_cast<int>(g.gpus.size());
  try {
    for (int s = 0; s < n; ++s)
      for (int d = 0; d < n; ++d) {
        if (s == d) continue;
        int can = 0;
        PF_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, s, d));
        m.pairs.push_back({s, d, can == 1, std::nullopt});
      }
    if (measure && n > 0) measureAll(n, m);
  } catch (const std::exception& e) {
    m.error = e.what();
  }
  return m;
}

}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What the CUDA runtime and NVML say about this node's GPUs, for the gpu and p2p probes on a live node. With CUDA
// and NCCL, `preflight` answers through probes/cuda/gpu_runtime_proxy.cpp, which asks gpu_runtime_cuda.cpp and
// p2p_measure.cpp inside preflight-gpu.so; otherwise probes/cuda/gpu_runtime_absent.cpp reports why nothing can be
// asked. NVML is dlopen()ed: it
// ships with the driver, not the toolkit, so a node without a driver must still be able to run Preflight.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pf::probes {

struct RuntimeGpu {
  int index = 0;
  std::string name, pciBusId;  ///< "NVIDIA H100 80GB HBM3", "0000:18:00.0" (lower case, as sysfs)
  long long memBytes = 0;
  int ccMajor = 0, ccMinor = 0;
  // NVML; nullopt when NVML is missing or the GPU does not support the query.
  std::optional<bool> eccEnabled, persistence;
  std::optional<long long> eccUncorrectedVolatile, eccCorrectedVolatile;
  std::optional<int> pcieGen, pcieWidth, pcieGenMax, pcieWidthMax;
  std::vector<std::string> nvlinkPeers;  ///< remote PCI bus id per active NVLink (NVSwitch ids included)
  int nvlinkActive = 0;
  /// NVSwitch multicast/reduction (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED): NCCL's NVLS algorithms can run.
  std::optional<bool> multicast;
  // Health (probes/cuda/nvml_health.cpp, judged by the gpu_health probe); nullopt where NVML cannot tell.
  std::optional<int> retiredPagesSbe, retiredPagesDbe;  ///< pages retired for repeated single-bit / double-bit ECC
  std::optional<bool> retiredPagesPending;              ///< a retirement waits for the next driver load or reset
  std::optional<int> remappedRowsCorrectable, remappedRowsUncorrectable;
  std::optional<bool> remapPending, remapFailed;  ///< row remapping (A100 and later) waits for a reset / failed
  struct NvLinkErrors {
    int link = 0;
    long long replay = 0, recovery = 0, crcFlit = 0, crcData = 0;  ///< nvmlDeviceGetNvLinkErrorCounter
  };
  std::vector<NvLinkErrors> nvlinkErrors;          ///< per active link whose counters could be read
  std::optional<unsigned long long> clocksEvents;  ///< nvmlClocksEventReason* bits now in force
  std::optional<int> fabricState, fabricStatus;    ///< nvmlGpuFabricState_t and its nvmlReturn_t (NVSwitch systems)
};

struct GpuRuntime {
  bool cudaOk = false;                        ///< cudaGetDeviceCount succeeded (count may still be 0)
  std::string cudaError;                      ///< why not: "no CUDA-capable device is detected", "built without CUDA"
  int driverVersion = 0, runtimeVersion = 0;  ///< cudaDriverGetVersion / cudaRuntimeGetVersion: 12040 = 12.4
  bool nvmlOk = false;
  std::string nvmlError;
  std::string nvmlDriverVersion;  ///< nvmlSystemGetDriverVersion: "535.161.08"
  std::vector<RuntimeGpu> gpus;
};

/// Asks the CUDA runtime and NVML (once per process; the answer is cached).
const GpuRuntime& queryGpuRuntime();

/// One pair's peer access and measured copy bandwidth (GB/s, 1e9 bytes/s), src -> dst.
struct PeerLink {
  int src = 0, dst = 0;
  bool canAccess = false;
  std::optional<double> gbps;  ///< nullopt when not measured (--quick, or the copy failed)
};
struct HostLink {
  int gpu = 0;
  std::optional<double> h2dGbps, d2hGbps;
};
struct P2pMeasurement {
  std::vector<PeerLink> pairs;
  std::vector<HostLink> host;
  std::string error;  ///< non-empty when the measurement could not run
  long long bytes = 0;
};

/// cudaDeviceCanAccessPeer for every ordered pair; when `measure`, copy bandwidth GPU->GPU (cudaMemcpyPeerAsync,
/// peer access enabled where possible) and host<->device (pinned), each the median of several timed copies.
P2pMeasurement measureP2p(bool measure);

}  // namespace pf::probes

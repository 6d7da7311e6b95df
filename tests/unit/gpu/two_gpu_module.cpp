// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A stand-in preflight-gpu.so for the p2p probe under several ranks on one node: CUDA answers two GPUs (nothing on
// this machine's PCI bus), and each call to measureP2p appends whether it was asked to measure ("measure=1" or
// "measure=0") to the file named by PF_STANDIN_P2P_LOG. It copies nothing and returns no figure.
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "probes/gpu_runtime.hpp"

namespace {

const pf::probes::GpuRuntime& twoGpus() {
  static const pf::probes::GpuRuntime rt = [] {
    pf::probes::GpuRuntime r;
    r.cudaOk = true;
    r.driverVersion = r.runtimeVersion = 13000;
    r.nvmlError = "stand-in module: no NVML";
    for (int i = 0; i < 2; ++i) {
      pf::probes::RuntimeGpu g;
      g.index = i;
      g.name = "stand-in GPU";
      g.pciBusId = i == 0 ? "0000:e1:00.0" : "0000:e2:00.0";
      r.gpus.push_back(g);
    }
    return r;
  }();
  return rt;
}

pf::probes::P2pMeasurement recordCall(bool measure) {
  if (const char* log = std::getenv("PF_STANDIN_P2P_LOG")) {
    const std::string line = measure ? "measure=1\n" : "measure=0\n";
    const int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);  // one write per line: ranks may append at once
    if (fd >= 0) {
      (void)!write(fd, line.data(), line.size());
      close(fd);
    }
  }
  pf::probes::P2pMeasurement m;
  if (measure) m.error = "stand-in module: no copy made";
  return m;
}

}  // namespace

extern "C" [[gnu::visibility("default")]] const char* pf_gpu_module_build() { return PF_FAKE_BUILD; }
extern "C" [[gnu::visibility("default")]] const decltype(&pf::probes::queryGpuRuntime) pf_gpu_runtime = &twoGpus;
extern "C" [[gnu::visibility("default")]] const decltype(&pf::probes::measureP2p) pf_gpu_measure_p2p = &recordCall;

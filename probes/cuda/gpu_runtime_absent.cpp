// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The GPU runtime queries of a Preflight built without CUDA: nothing can be asked, and the probes say so.
#include "gpu_runtime.hpp"

namespace pf::probes {

const GpuRuntime& queryGpuRuntime() {
  static const GpuRuntime r = [] {
    GpuRuntime g;
    g.cudaError =
        "this preflight was built without CUDA and NCCL (configure with the CUDA toolkit and NCCL to query GPUs)";
    g.nvmlError = g.cudaError;
    return g;
  }();
  return r;
}

P2pMeasurement measureP2p(bool) {
  P2pMeasurement m;
  m.error = queryGpuRuntime().cudaError;
  return m;
}

}  // namespace pf::probes

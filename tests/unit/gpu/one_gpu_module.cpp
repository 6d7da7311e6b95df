// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A stand-in preflight-gpu.so for a node with one GPU: requireCudaDevice() answers 1, and running a world size
// fails loudly, so a test can tell a command that refused to start from one that ran.
#include "cuda_runner.hpp"
#include "pf/error.hpp"

namespace {

int oneGpu() { return 1; }

pf::Json refuseToRun(const pf::scaling::ScaleOptions&, int n, pf::Bootstrap&, int) {
  throw pf::RuntimeFailure("the one-GPU stand-in module was asked to run world size " + std::to_string(n));
}

}  // namespace

extern "C" [[gnu::visibility("default")]] const char* pf_gpu_module_build() { return PF_FAKE_BUILD; }
extern "C" [[gnu::visibility("default")]] const decltype(&pf::scaling::requireCudaDevice) pf_gpu_require_cuda_device =
    &oneGpu;
extern "C" [[gnu::visibility("default")]] const decltype(&pf::scaling::runCudaWorldSize) pf_gpu_cuda_world_size =
    &refuseToRun;

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Builds without CUDA (or without NCCL): `scale --device cuda` is a usage error (exit 2) that says why.
#include "cuda_runner.hpp"
#include "pf/error.hpp"

namespace pf::scaling {
namespace {
[[noreturn]] void absent() {
  throw UsageError(
      "--device cuda: this preflight was built without CUDA (or without NCCL): install the "
      "CUDA toolkit and NCCL (libnccl-dev), reconfigure and rebuild, or use --device cpu");
}
}  // namespace

int requireCudaDevice() { absent(); }

Json runCudaWorldSize(const ScaleOptions&, int, Bootstrap&, int) { absent(); }

}  // namespace pf::scaling

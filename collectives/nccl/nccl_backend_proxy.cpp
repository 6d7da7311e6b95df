// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--backend nccl` in `preflight`: the backend itself is in preflight-gpu.so (nccl_backend.cpp), opened when a
// sweep first asks for it; a node that cannot load it gets the reason (pf/gpu_module.hpp) and exit code 3.
#include "nccl_backend.hpp"
#include "pf/gpu_module.hpp"
#include "pf/registry.hpp"

namespace pf::collectives {
namespace {

std::unique_ptr<Backend> openNcclBackend() {
  return gpu::entry<decltype(&makeNcclBackend)>(gpu::entries::kNcclBackend)();
}
const Registrar<Backend> registrar("nccl", openNcclBackend);

}  // namespace
}  // namespace pf::collectives

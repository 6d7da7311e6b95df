// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--engine nccl` in `preflight`: the engine itself is in preflight-gpu.so (nccl_pair_engine.cpp), opened when a
// pair test first asks for it; a node that cannot load it gets the reason (pf/gpu_module.hpp) and exit code 3.
#include "nccl_pair_engine.hpp"
#include "pf/gpu_module.hpp"
#include "pf/registry.hpp"

namespace pf::check {
namespace {

std::unique_ptr<PairEngine> openNcclPairEngine() {
  return gpu::entry<decltype(&makeNcclPairEngine)>(gpu::entries::kNcclPairEngine)();
}
const Registrar<PairEngine> registrar("nccl", openNcclPairEngine);

}  // namespace
}  // namespace pf::check

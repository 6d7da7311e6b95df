// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL pair engine's one export: made inside preflight-gpu.so, handed to `preflight` through the module's
// entry (gpu/entries/).
#pragma once

#include <memory>

#include "../pair_engine.hpp"

namespace pf::check {

/// A new NCCL pair engine (nccl_pair_engine.cpp).
std::unique_ptr<PairEngine> makeNcclPairEngine();

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL backend's one export: it is made inside preflight-gpu.so and handed to `preflight` through the
// module's entry (gpu/entries/), never registered from the module itself.
#pragma once

#include <memory>

#include "../backend.hpp"

namespace pf::collectives {

/// A new NCCL backend (nccl_backend.cpp).
std::unique_ptr<Backend> makeNcclBackend();

}  // namespace pf::collectives

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "efa_caps.hpp"

namespace pf::probes {
std::optional<bool> efaRdmaRead(ibv_context*) { return std::nullopt; }
}  // namespace pf::probes

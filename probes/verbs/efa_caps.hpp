// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// EFA device capabilities through libefa's efadv_query_device, the one call that says whether an EFA device
// supports RDMA read (sysfs does not). efa_caps.cpp calls it when libefa is installed; efa_caps_absent.cpp
// answers "unknown" otherwise.
#pragma once

#include <infiniband/verbs.h>

#include <optional>

namespace pf::probes {

/// nullopt when the device is not an EFA device (the call is refused) or libefa is not built in.
std::optional<bool> efaRdmaRead(ibv_context* ctx);

}  // namespace pf::probes

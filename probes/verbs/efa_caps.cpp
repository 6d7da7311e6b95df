// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "efa_caps.hpp"

#include <infiniband/efadv.h>

namespace pf::probes {

std::optional<bool> efaRdmaRead(ibv_context* ctx) {
  efadv_device_attr attr{};
  if (efadv_query_device(ctx, &attr, sizeof attr) != 0) return std::nullopt;  // EOPNOTSUPP on other devices
  return (attr.device_caps & EFADV_DEVICE_ATTR_CAPS_RDMA_READ) != 0;
}

}  // namespace pf::probes

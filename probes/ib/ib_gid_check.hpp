// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL_IB_GID_INDEX against the GID tables of the RoCE ports NCCL would use (NCCL User Guide,
// "Environment Variables", NCCL_IB_GID_INDEX: docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html).
// NCCL 2.21 and later pick the GID themselves (RoCE v2, NCCL_IB_ADDR_FAMILY, default IPv4) and NVIDIA's
// troubleshooting guide says the variable should then not be set; older NCCL uses index 0 unless told, which
// on most RoCE NICs is the link-local RoCE v1 GID. A wrong index shows up as "ibv_modify_qp ... Invalid
// argument", timeouts or completion error 12.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ib/ib_devices.hpp"
#include "probe_util.hpp"

namespace pf::probes {

/// The index `show_gids` users pick: the first RoCE v2 GID that carries an IPv4 address, else the first RoCE v2.
std::optional<int> preferredGidIndex(const IbPort& p);

/// Adds findings for the GID index on every RoCE port in `ports` (device, port pairs already selected by
/// NCCL_IB_HCA). `ncclVersionCode` is 0 when the NCCL version is unknown.
void checkGidIndex(const std::vector<DevicePort>& ports, const std::optional<std::string>& gidIndex,
                   int ncclVersionCode, Findings& f, Json& params);

}  // namespace pf::probes

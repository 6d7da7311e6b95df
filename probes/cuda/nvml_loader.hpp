// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The gpu and p2p probes' NVML queries (ECC, persistence, PCIe link, NVLink peers), through the dlopen()ed
// session of pf/nvml.hpp, with the ABI of NVIDIA's nvml.h (NVML API 12).
#pragma once

#include <string>

#include "gpu_runtime.hpp"

namespace pf::probes {

/// Fills the NVML fields of `g` (matched by PCI bus id) and the driver version. Returns false with `error`
/// set when NVML cannot be loaded or initialised.
bool fillFromNvml(GpuRuntime& g, std::string& error);

/// "0000:18:00.0" from "00000000:18:00.0" or "0000:18:00.0" in any case (sysfs's spelling).
std::string normalizeBusId(std::string id);

}  // namespace pf::probes

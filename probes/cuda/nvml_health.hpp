// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The GPU health counters NVML keeps (retired pages, row remapping, NVLink error counters, clock event reasons,
// the NVSwitch fabric state), read into a RuntimeGpu for the gpu_health probe. Called from fillFromNvml inside
// preflight-gpu.so; the unit test compiles it against a stand-in NVML. Signatures and constants are nvml.h's
// (NVML API 12): the structures are declared in nvml_health.cpp.
#pragma once

#include "gpu_runtime.hpp"
#include "pf/nvml.hpp"

namespace pf::probes {

/// Fills the health fields of `gpu` from device `d`; a query this NVML lacks or the GPU does not support leaves
/// its field unset.
void readNvmlHealth(const NvmlSession& nvml, nvmlDevice_t d, RuntimeGpu& gpu);

}  // namespace pf::probes

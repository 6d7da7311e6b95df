// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The gpu_health probe's judgement of one GPU's NVML health counters (RuntimeGpu's health fields), apart from the
// probe so that the unit test can judge constructed values: no GPU is needed to test what a reading means.
#pragma once

#include "gpu_runtime.hpp"
#include "pf/result.hpp"
#include "probe_util.hpp"

namespace pf::probes {

// nvml.h's nvmlClocksEventReason* bits that mean the hardware or the driver is holding the clocks down.
constexpr unsigned long long kClocksHwSlowdown = 0x8, kClocksSwThermal = 0x20, kClocksHwThermal = 0x40,
                             kClocksHwPowerBrake = 0x80;
// nvml.h's nvmlGpuFabricState_t.
constexpr int kFabricNotSupported = 0, kFabricNotStarted = 1, kFabricInProgress = 2, kFabricCompleted = 3;

/// Adds `g`'s health readings to `row` and its problems to `f`: fail for a pending or failed row remap or page
/// retirement and for an NVLink fabric that the fabric manager has not brought up; warn for clocks held down by
/// the hardware or by heat and for NVLink error counters above zero.
void judgeGpuHealth(const RuntimeGpu& g, Json& row, Findings& f);

}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The CPU trainer (trainer.hpp: OpenBLAS compute, gradient buckets all-reduced by the group) as a ScaleDevice
// for the shared world-size loop (world_size_runner.hpp).
#pragma once

#include <memory>

#include "world_size_runner.hpp"

namespace pf::scaling {

/// Trainers on the CPU; the row's `device` is "cpu" and it adds no fields of its own.
std::unique_ptr<ScaleDevice> makeCpuDevice();

}  // namespace pf::scaling

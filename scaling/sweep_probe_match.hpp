// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `scale --nics PROBE.json` beside `--from SWEEP.json`: the probe's NICs bound or stand in for the network of
// the nodes the sweep ran on. A sweep of host buffers (MPI on CPUs) next to the probe of a node with GPUs mixes a
// CPU run with a GPU node's NICs, and its predictions describe neither; this says so.
#pragma once

#include <string>

#include "pf/result.hpp"

namespace pf::scaling {

/// The warning when `sweep` moved host buffers and `probe` shows a node with GPUs; "" when they agree.
std::string sweepProbeMismatch(const RunReport& sweep, const std::string& sweepPath, const RunReport& probe,
                               const std::string& probePath);

}  // namespace pf::scaling

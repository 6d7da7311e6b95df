// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Checks of a normalised launch environment against the node: ranks versus GPUs, the node rank, and the
// rendezvous point (master address resolvable, master port free on the master or reachable from elsewhere).
#pragma once

#include <string>
#include <vector>

#include "job_env.hpp"
#include "pf/result.hpp"
#include "system_view.hpp"

namespace pf::probes {

struct EnvCheckOptions {
  bool network = true;  ///< resolve the master and test its port (off for captured trees and environments)
  int connectTimeoutMs = 2000;
  std::string networkOff = "network checks are off";  ///< why not, in the skipped result's message
};

/// GPUs this process can use: NVIDIA devices in /proc/driver/nvidia/gpus (or /dev/nvidiaN), narrowed by
/// CUDA_VISIBLE_DEVICES. nullopt when the node has none.
std::optional<int> visibleGpus(const SystemView& sys);

/// One result per check (key "env.<check>", kind "env"), pass/warn/fail/skipped with evidence and remedies.
std::vector<Result> checkJobEnv(const JobEnv& job, const SystemView& sys, const EnvCheckOptions& opt);

}  // namespace pf::probes

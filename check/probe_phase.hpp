// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The probe phase of `preflight check`: the node probes (devices, NCCL settings, interfaces) on every rank,
// their cross-node consistency, and the link rates the expected-bandwidth model needs. Built from
// probe_phase.cpp when the probes component is in the tree, from probe_phase_none.cpp otherwise (which
// records the phase as skipped and says why: never a silent pass).
#pragma once

#include <vector>

#include "expectation.hpp"
#include "finding.hpp"
#include "pf/bootstrap.hpp"
#include "pf/environment.hpp"
#include "pf/launcher_env.hpp"

namespace pf::check {

struct ProbePhase {
  std::vector<Result> results;    ///< the probes' own results (rank 0 holds every node's)
  std::vector<Finding> findings;  ///< failures and warnings, one per node and probe
  std::vector<NodeLinks> links;   ///< link rates per node, for the expectation (empty when unknown)
  bool available = false;         ///< false when this build has no probes
};

/// Runs the probes on every rank (a collective call) and gathers them. @param quick skip slow probes
ProbePhase runProbePhase(Bootstrap& boot, const LauncherEnv& launcher, const Environment& env, bool quick);

}  // namespace pf::check

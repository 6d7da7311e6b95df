// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The probe phase of `preflight check`: the node probes (devices, NCCL settings, interfaces) on every rank,
// their cross-node consistency, and the link rates the expected-bandwidth model needs. Built from
// probe_phase.cpp when the probes component is in the tree, from probe_phase_none.cpp otherwise (which
// records the phase as skipped and says why: never a silent pass).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "expectation.hpp"
#include "finding.hpp"
#include "pf/bootstrap.hpp"
#include "pf/environment.hpp"
#include "pf/launcher_env.hpp"
#include "thresholds.hpp"

namespace pf::probes {
struct NodeProfile;
}

namespace pf::check {

/// What the phase reads besides the live node: a captured tree (--sysfs-root) and a node profile (--profile).
struct ProbeInput {
  std::string root;                                    ///< empty = the live node
  std::shared_ptr<const probes::NodeProfile> profile;  ///< null = no profile to judge against
  int dcgmLevel = 0;                                   ///< `--dcgm LEVEL`: DCGM's diagnostic on each node; 0 = none
};

/// `--dcgm LEVEL`: 0 (not given) or 1-4, and only with the probe phase. @throws UsageError otherwise
void validateDcgmLevel(int level, bool noProbes);

/// Reads the node profile `spec` names (a file, a built-in name or "auto"; before any rank starts) and puts its
/// declared expectations (expect.pair_busbw_gbs, expect.allreduce_busbw_gbs) into `limits`.
/// @throws UsageError naming the file, the key and what to change; also when this build has no probes
std::shared_ptr<const probes::NodeProfile> loadCheckProfile(const std::string& spec, Thresholds& limits);

struct ProbePhase {
  std::vector<Result> results;    ///< the probes' own results (rank 0 holds every node's)
  std::vector<Finding> findings;  ///< failures and warnings, one per node and probe
  std::vector<NodeLinks> links;   ///< link rates per node, for the expectation (empty when unknown)
  bool available = false;         ///< false when this build has no probes
};

/// Runs the probes on every rank (a collective call) and gathers them. @param quick skip slow probes
/// A node that misses or degrades what the profile requires gets a failing "probe.profile" finding.
ProbePhase runProbePhase(Bootstrap& boot, const LauncherEnv& launcher, const Environment& env, bool quick,
                         const ProbeInput& input = {});

}  // namespace pf::check

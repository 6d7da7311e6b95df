// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The probe phase of `preflight check`: the node probes (devices, NCCL settings, interfaces) on every rank,
// their cross-node consistency, and the link rates the expected-bandwidth model needs. Built from
// probe_phase.cpp when the probes component is in the tree, from probe_phase_none.cpp otherwise (which
// records the phase as skipped and says why: never a silent pass).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "expectation.hpp"
#include "finding.hpp"
#include "pf/bootstrap.hpp"
#include "pf/environment.hpp"
#include "pf/kernel_log.hpp"
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
  std::optional<KernelLogSince> xidSince;              ///< `--xid-since`: the Xid scan's window; none = since boot
};

/// A node profile's [expect] as the measured phases take it: the figures and where they came from.
struct DeclaredExpect {
  std::optional<double> pairBusbwGbs, allreduceBusbwGbs;  ///< GB/s; none: the check derives the figure
  std::string source;  ///< the profile, for the findings: "built-in X, picked by --profile auto on every node"
  std::string note;    ///< `--profile auto`: why a figure some nodes declare was not applied (empty when none)
};

/// Puts the declared figures into `limits`; a figure not declared leaves the derived one.
void applyDeclared(const DeclaredExpect& declared, Thresholds& limits);

/// One rank's `--profile auto` pick as agreeDeclared reads it: the host, the picked profile and its [expect].
std::string pickJson(const std::string& host, const probes::NodeProfile& picked);

/// `--profile auto`: the [expect] of the profiles the nodes picked, from every rank's pickJson (any order of
/// ranks gives the same answer, so every rank agrees without talking). A figure applies only when every node's
/// profile declares it, as the lowest of them (a pair is as fast as its slower node); otherwise it is derived, as
/// with a profile that declares none, and `note` says which nodes declare it and which do not.
DeclaredExpect agreeDeclared(const std::vector<std::string>& picks);

/// `--dcgm LEVEL`: 0 (not given) or 1-4, and only with the probe phase. @throws UsageError otherwise
void validateDcgmLevel(int level, bool noProbes);

/// Reads the node profile `spec` names (a file, a built-in name or "auto"; before any rank starts) and puts its
/// declared expectations (expect.pair_busbw_gbs, expect.allreduce_busbw_gbs) into `limits`. For "auto" each node
/// picks its profile in the probe phase, which agrees on the picked profiles' figures (ProbePhase::declared).
/// @throws UsageError naming the file, the key and what to change; also when this build has no probes
std::shared_ptr<const probes::NodeProfile> loadCheckProfile(const std::string& spec, Thresholds& limits);

struct ProbePhase {
  std::vector<Result> results;    ///< the probes' own results (rank 0 holds every node's)
  std::vector<Finding> findings;  ///< failures and warnings, one per node and probe
  std::vector<NodeLinks> links;   ///< link rates per node, for the expectation (empty when unknown); on every rank
  DeclaredExpect declared;        ///< `--profile auto`: the picked profiles' [expect], the same on every rank
  bool available = false;         ///< false when this build has no probes
};

/// Runs the probes on every rank (a collective call) and gathers them. @param quick skip slow probes
/// A node that misses or degrades what the profile requires gets a failing "probe.profile" finding.
ProbePhase runProbePhase(Bootstrap& boot, const LauncherEnv& launcher, const Environment& env, bool quick,
                         const ProbeInput& input = {});

}  // namespace pf::check

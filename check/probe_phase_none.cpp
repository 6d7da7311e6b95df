// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The probe phase in a build without the probes component.
#include "pf/error.hpp"
#include "probe_phase.hpp"

namespace pf::check {

std::shared_ptr<const probes::NodeProfile> loadCheckProfile(const std::string& path, Thresholds&) {
  throw UsageError("--profile " + path +
                   ": this preflight was built without the probes component, which judges "
                   "a node against a profile; build it from a tree that has probes/");
}

void validateDcgmLevel(int level, bool) {
  if (level != 0)
    throw UsageError("--dcgm: this preflight was built without the probes component, which runs DCGM's diagnostic");
}

ProbePhase runProbePhase(Bootstrap&, const LauncherEnv&, const Environment&, bool, const ProbeInput&) {
  ProbePhase p;
  Result r;
  r.key = "check.probes";
  r.kind = Kind::kCheck;
  r.status = Status::kSkipped;
  r.message =
      "probes not run: this preflight was built without the probes component, so devices, NCCL "
      "variables and interfaces were not checked";
  r.remedy = "build preflight from a tree that has probes/ to include them";
  p.results.push_back(std::move(r));
  return p;
}

}  // namespace pf::check

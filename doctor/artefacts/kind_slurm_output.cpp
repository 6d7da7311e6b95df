// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A Slurm job's output (slurm-JOBID.out) whose first lines already show srun or slurmstepd speaking; read as a log.
// srun's task exits and slurmstepd's cancellations become events (line_events.hpp). A Slurm output that starts
// with the application's own lines reads as a "log": the same reader, so nothing is lost, only the label differs.
#include "artefact.hpp"
#include "line_events.hpp"

namespace pf::doctor {
namespace {

class SlurmOutputKind final : public ArtefactKind {
 public:
  std::string description() const override { return "Slurm job output (srun / slurmstepd)"; }
  int recognise(std::string_view head) const override {
    if (!looksLikeText(head)) return 0;
    const bool slurm = head.find("srun: ") != std::string_view::npos ||
                       head.find("slurmstepd: ") != std::string_view::npos ||
                       head.find("slurmstepd-") != std::string_view::npos;
    return slurm ? 20 : 0;
  }
  bool readsAsLog() const override { return true; }
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override { return lineEventsReader(file, false); }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(SlurmOutputKind, "slurm-output");

}  // namespace pf::doctor

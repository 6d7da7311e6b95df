// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Output holding NCCL 2.31's "NCCL DIAG" report (pf/nccl_diag.hpp): each line tagged other than [OK] becomes a
// finding on the host that printed it. The same lines are found in any log; this kind only names a file whose
// first lines are the report. Read as a log too (the report shares rank 0's standard output).
#include "artefact.hpp"
#include "line_events.hpp"

namespace pf::doctor {
namespace {

class NcclDiagKind final : public ArtefactKind {
 public:
  std::string description() const override { return "NCCL diagnostics report (NCCL DIAG lines)"; }
  int recognise(std::string_view head) const override {
    return looksLikeText(head) && head.find("NCCL DIAG ") != std::string_view::npos ? 25 : 0;
  }
  bool readsAsLog() const override { return true; }
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override { return lineEventsReader(file, false); }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(NcclDiagKind, "nccl-diag");

}  // namespace pf::doctor

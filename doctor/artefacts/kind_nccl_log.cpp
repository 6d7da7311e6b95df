// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Any text that no more specific kind takes: an NCCL / PyTorch / MPI log, a launcher's output, a paste. The rules
// read it (as the doctor always did) and LineEvents picks out the lines that place a failure in time.
#include "artefact.hpp"
#include "line_events.hpp"

namespace pf::doctor {
namespace {

class NcclLogKind final : public ArtefactKind {
 public:
  std::string description() const override { return "log (NCCL, PyTorch, MPI or application output)"; }
  int recognise(std::string_view head) const override {
    return looksLikeText(head) && !looksLikeJsonDocument(head) ? kTextScore : 0;
  }
  bool readsAsLog() const override { return true; }
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override { return lineEventsReader(file, false); }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(NcclLogKind, "log");

}  // namespace pf::doctor

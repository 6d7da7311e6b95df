// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// nccl-tests' text output ("# nThread 1 nGpus 1 ...", "# Collective test starting"): read as a log, where the
// doctor's nccl-tests reader (nccl_tests_output.hpp) finds stalls, separate worlds and wrong results.
#include "artefact.hpp"
#include "line_events.hpp"

namespace pf::doctor {
namespace {

class NcclTestsTextKind final : public ArtefactKind {
 public:
  std::string description() const override { return "nccl-tests output"; }
  int recognise(std::string_view head) const override {
    if (!looksLikeText(head)) return 0;
    return head.find("# nThread ") != std::string_view::npos ||
                   head.find("# Collective test starting") != std::string_view::npos
               ? 20
               : 0;
  }
  bool readsAsLog() const override { return true; }
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override { return lineEventsReader(file, false); }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(NcclTestsTextKind, "nccl-tests-text");

}  // namespace pf::doctor

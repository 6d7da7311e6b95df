// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The `ncclras` client's text report, or its MONITOR event lines (ras_text.hpp).
#include "artefact.hpp"
#include "document_reader.hpp"
#include "ras_text.hpp"

namespace pf::doctor {
namespace {

class RasTextReader final : public DocumentReader {
 public:
  using DocumentReader::DocumentReader;

 private:
  const char* what() const override { return "ncclras report"; }
  void read(const std::string& text, ArtefactOut& out) override { readRasText(text, file(), out); }
};

class RasTextKind final : public ArtefactKind {
 public:
  std::string description() const override { return "NCCL RAS report (ncclras)"; }
  int recognise(std::string_view head) const override {
    if (!looksLikeText(head)) return 0;
    const bool report = head.find("Job summary\n===") != std::string_view::npos ||
                        head.find("\nCommunicators...") != std::string_view::npos ||
                        head.find("Gathering data about the RAS network") != std::string_view::npos ||
                        head.starts_with("Errors\n======\n");
    const bool monitor = head.find("] PEER_") != std::string_view::npos &&
                         (head.find(": Process ") != std::string_view::npos || head.starts_with("["));
    return report || monitor ? 50 : 0;
  }
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override {
    return std::make_unique<RasTextReader>(file);
  }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(RasTextKind, "ras-text");

}  // namespace pf::doctor

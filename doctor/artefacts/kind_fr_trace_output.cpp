// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The saved output of PyTorch's own Flight Recorder analyser (`python -m torch.distributed.flight_recorder.fr_trace`)
// when the analyser itself stopped with a Python exception before printing any analysis: with torch 2.15 it does on
// every gloo job (a KeyError on its group keys) and whenever a rank's dump is missing. A user who tried it first keeps
// that output beside the dumps. Read as a log, its traceback would pass for the job's failure; it is the analyser's,
// so this kind says so as a finding and hands nothing to the rules. fr_trace output that holds an analysis (its
// "Culprit rank" lines) is not this kind: it reads as a log, where the rules read its verdicts.
#include <algorithm>
#include <string>
#include <string_view>

#include "artefact.hpp"
#include "document_reader.hpp"

namespace pf::doctor {
namespace {

constexpr std::string_view kTraceback = "Traceback (most recent call last):";

// A frame of the analyser's own modules (fr_trace.py and its components/), as a traceback prints it.
bool analyserFrame(std::string_view text) {
  return text.find("flight_recorder/fr_trace.py") != std::string_view::npos ||
         text.find("flight_recorder/components/") != std::string_view::npos;
}

// The exception a traceback ends with: the first line after the last traceback header that starts in column one
// (frames and their source lines are indented).
std::string exceptionOf(std::string_view text) {
  const std::size_t at = text.rfind(kTraceback);
  if (at == std::string_view::npos) return {};
  std::size_t i = text.find('\n', at);
  while (i != std::string_view::npos && i + 1 < text.size()) {
    const std::size_t begin = i + 1, end = std::min(text.find('\n', begin), text.size());
    const std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line[0] != ' ' && line[0] != '\t' && line[0] != '\r') return eventText(line);
    i = end < text.size() ? end : std::string_view::npos;
  }
  return {};
}

class FrTraceOutputReader final : public DocumentReader {
 public:
  using DocumentReader::DocumentReader;

 private:
  const char* what() const override { return "fr_trace output"; }
  void read(const std::string& text, ArtefactOut& out) override {
    ArtefactFinding f;
    f.id = "fr_trace.analyser_failed";
    f.fail = false;  // the analyser's failure, not the job's
    f.file = file();
    f.text = exceptionOf(text);
    f.message = "PyTorch's Flight Recorder analyser (fr_trace) stopped with " +
                (f.text.empty() ? std::string("an exception") : f.text) +
                " before its analysis: a failure of the analyser, not of the job";
    f.remedy =
        "give the Flight Recorder dumps themselves (the files TORCH_FR_DUMP_TEMP_FILE names, one per rank): "
        "the doctor matches them across ranks without Python";
    out.findings.push_back(std::move(f));
  }
};

class FrTraceOutputKind final : public ArtefactKind {
 public:
  std::string description() const override { return "PyTorch fr_trace output that stopped with an exception"; }
  int recognise(std::string_view head) const override {
    if (!looksLikeText(head) || head.find(kTraceback) == std::string_view::npos || !analyserFrame(head)) return 0;
    return head.find("Culprit rank") == std::string_view::npos ? 40 : 0;
  }
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override {
    return std::make_unique<FrTraceOutputReader>(file);
  }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(FrTraceOutputKind, "fr-trace-output");

}  // namespace pf::doctor

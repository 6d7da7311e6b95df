// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// PyTorch Flight Recorder dumps (one per rank: TORCH_FR_DUMP_TEMP_FILE / TORCH_NCCL_DEBUG_INFO_TEMP_FILE, pickled
// or JSON) as artefacts. One dump says what one rank last did; only the dumps of a job together say who the others
// were waiting for, so the kind reads its files into one job state and analyses them once, after the last input
// (flight_recorder/analysis.hpp). The verdict becomes a finding on the culprit rank with a remedy that fits its
// kind, the analysis itself a section of the artefacts' result, and each rank read is counted as covered, so the
// ranks whose dumps are missing are said.
//
// A dump that cannot be read (a pickle that would import or call something, a file cut short because its rank
// died while writing it) is refused with the reader's reason and the rank treated as one whose dump was not
// given: one bad file must not hide what the other ranks' dumps say.
#include <fmt/format.h>

#include "artefact.hpp"
#include "document_reader.hpp"
#include "flight_recorder/analysis.hpp"
#include "flight_recorder/dump.hpp"
#include "pf/error.hpp"

namespace pf::doctor {
namespace {

// What to do about each verdict: the culprit and the collective are in the finding's message.
std::string frRemedy(const fr::Headline& h) {
  if (h.p2p && h.kind == fr::VerdictKind::kNotReached)
    return "every send needs the matching receive on its peer, in the same order per pair of ranks: read the "
           "culprit's last call's frames for a pipeline schedule that skips or reorders a receive or a send, a "
           "branch on the rank, or a stage that stopped early";
  if (h.p2p && h.kind == fr::VerdictKind::kMismatch)
    return "a receive must expect what its peer sends (same sizes and data types): find where the receiver's "
           "buffer is shaped (its frames below) against the sender's tensor; a pipeline stage whose activation "
           "shape depends on the batch or the sequence length is the usual cause; a receive larger than the "
           "send may even complete and leave the rest of its buffer stale";
  switch (h.kind) {
    case fr::VerdictKind::kMismatch:
      return "the ranks of a group must issue the same collectives in the same order, with the same operation, "
             "sizes and data types; find where the culprit's program differs (its frames below): a branch on the "
             "rank, uneven data or a shape that depends on the batch";
    case fr::VerdictKind::kNotReached:
      return "the culprit never called the collective the others wait in: read its last call's frames for a "
             "branch that skips the collective, an exception caught and ignored, an early exit, or a data loader "
             "that ran out on that rank";
    case fr::VerdictKind::kMissingRank:
      return "collect those ranks' dumps (TORCH_FR_DUMP_TEMP_FILE on a shared path, TORCH_NCCL_DUMP_ON_TIMEOUT=1); "
             "a rank killed outright (out of memory, an Xid, a lost node) writes none: read its node's kernel log "
             "and the scheduler's output";
    case fr::VerdictKind::kIncomplete:
      return "every rank entered the collective and it did not complete: the transport or a GPU stalled; read the "
             "NCCL logs and kernel logs of those ranks' nodes (preflight check on them)";
    case fr::VerdictKind::kStraggler:
      return "the culprit reached the collective late: compare its step time (data loading, CPU contention, a "
             "throttled GPU); the others waited for it";
    case fr::VerdictKind::kCompletedOk: break;
  }
  return "";
}

class FlightRecorderState final : public ArtefactJobState {
 public:
  void add(fr::Dump d) { dumps_.push_back(std::move(d)); }
  void refuse(const std::string& file, const std::string& why) { refused_.emplace_back(file, why); }

  void finish(ArtefactOut& out) override {
    if (dumps_.empty() && refused_.empty()) return;
    const fr::Report rep = fr::analyse(dumps_);
    for (int r : rep.ranksGiven) out.cover("Flight Recorder dumps", r);
    if (rep.worldSize > out.worldSize) out.worldSize = rep.worldSize;
    std::vector<std::string> lines = rep.lines();
    Json refused = Json::array();
    for (const auto& [file, why] : refused_) {
      lines.push_back("  not read: " + why);
      refused.push_back({{"file", file}, {"reason", why}});
    }
    Json section = rep.toJson();
    section["title"] = "Flight Recorder";
    section["lines"] = lines;
    section["refused"] = std::move(refused);
    out.sections["flight_recorder"] = std::move(section);

    const fr::Headline& h = rep.headline;
    if (h.kind != fr::VerdictKind::kCompletedOk) {
      ArtefactFinding f;
      f.id = fmt::format("flight_recorder.{}", fr::toString(h.kind));
      // Only the kinds that name a program error or a stall fail; dumps not given are a gap in what was collected.
      // A rank without a dump while the others stalled in a collective that needed it is a stall, and fails.
      f.fail = h.kind != fr::VerdictKind::kMissingRank || h.othersStalled;
      f.rank = h.ranks.empty() ? -1 : h.ranks.front();
      f.message = fr::summaryOf(h);
      f.remedy = frRemedy(h);
      for (const auto& d : dumps_)
        if (d.rank == f.rank) f.file = d.path;
      f.text = h.culpritCall;
      out.findings.push_back(std::move(f));
    }
    for (const auto& [file, why] : refused_) {
      ArtefactFinding f;
      f.id = "flight_recorder.unreadable_dump";
      f.fail = false;
      f.message = "a Flight Recorder dump could not be read and counts as not given: " + why;
      f.remedy =
          "give the dump as PyTorch wrote it (pickle or JSON); a dump cut short means its rank died while "
          "writing it";
      f.file = file;
      out.findings.push_back(std::move(f));
    }
  }

 private:
  std::vector<fr::Dump> dumps_;
  std::vector<std::pair<std::string, std::string>> refused_;  // file, the reader's reason
};

class FlightRecorderReader final : public DocumentReader {
 public:
  FlightRecorderReader(std::string file, FlightRecorderState& state) : DocumentReader(std::move(file)), state_(state) {}

 private:
  const char* what() const override { return "Flight Recorder dump"; }
  void read(const std::string& text, ArtefactOut&) override {
    try {
      state_.add(fr::parseDump(text, file(), fr::rankFromFileName(file())));
    } catch (const UsageError& e) {
      state_.refuse(file(), e.what());
    }
  }
  FlightRecorderState& state_;
};

class SoloFlightRecorderReader final : public ArtefactReader {
 public:
  explicit SoloFlightRecorderReader(const std::string& file) : reader_(file, state_) {}
  void block(std::string_view text) override { reader_.block(text); }
  void finish(ArtefactOut& out) override {
    reader_.finish(out);
    state_.finish(out);
  }

 private:
  FlightRecorderState state_;
  FlightRecorderReader reader_;
};

class FlightRecorderKind final : public ArtefactKind {
 public:
  std::string description() const override { return "PyTorch Flight Recorder dump (TORCH_FR_DUMP_TEMP_FILE)"; }
  // Above the JSON document kinds (50): a dump's JSON form names the recorder's own keys.
  int recognise(std::string_view head) const override { return fr::looksLikeDump(head) ? 60 : 0; }
  // One dump alone (the session always reads a job's dumps together through jobState(); a caller that opens one
  // file gets that rank's analysis on its own).
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override {
    return std::make_unique<SoloFlightRecorderReader>(file);
  }
  std::unique_ptr<ArtefactJobState> jobState() const override { return std::make_unique<FlightRecorderState>(); }
  std::unique_ptr<ArtefactReader> openInJob(const std::string& file, ArtefactJobState& state) const override {
    return std::make_unique<FlightRecorderReader>(file, static_cast<FlightRecorderState&>(state));
  }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(FlightRecorderKind, "flight-recorder");

}  // namespace pf::doctor

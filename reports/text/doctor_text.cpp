// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight doctor` in the terminal: the ranked diagnoses (cause, evidence as file:line, fix and commands),
// then what NCCL did (doctor.info) and the per-rank findings (doctor.ranks). --verbose adds every evidence
// line, the links and each process's NCCL setup.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "doctor_artefacts_text.hpp"
#include "pf/diagnosis.hpp"
#include "text_view.hpp"

namespace pf::reports {
namespace {

// A log line of over 160 bytes cut to 157 and "...", never inside a UTF-8 sequence.
std::string cutLogLine(const std::string& s) {
  if (s.size() <= 160) return s;
  std::size_t at = 157;
  while (at > 0 && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) --at;
  return s.substr(0, at) + "...";
}

class DoctorText final : public TextView {
 public:
  std::string end(const RunReport& report) override {
    const bool verbose = options().verbose;
    std::string out;
    const Result* info = nullptr;
    const Result* ranks = nullptr;
    const Result* artefacts = nullptr;
    int n = 0;
    for (const Result& r : report.results) {
      if (r.key == "doctor.info") info = &r;
      if (r.key == "doctor.ranks") ranks = &r;
      if (r.key == "doctor.artefacts") artefacts = &r;
    }
    for (const Result& r : report.results)
      if (r.kind == Kind::kDiagnosis) ++n;
    if (n == 0 && info) {
      const DoctorInfo d = doctorInfoFromResult(*info);
      // The rules found nothing; the other artefacts (a RAS report, DIAG lines) may still report a failure.
      const bool artefactFailed = artefacts && artefacts->status == Status::kFail;
      out += fmt::format("No known failure found in {} log lines ({} bytes){}.\n", d.input_lines, d.input_bytes,
                         artefactFailed ? "; the artefacts below report one" : "");
    }
    int i = 0;
    for (const Result& r : report.results) {
      if (r.kind != Kind::kDiagnosis) continue;
      const DiagnosisParams d = diagnosisFromResult(r);
      const int hits = r.metrics.value("matching_lines", 0);
      out += fmt::format("{}. [{}] {}  (rule {}, confidence {:.2f}, {} matching line{})\n", ++i, d.category, r.message,
                         d.rule_id, d.confidence, hits, hits == 1 ? "" : "s");
      if (!d.confirm.empty()) out += fmt::format("   confirm: {} - {}\n", d.confirm, d.confirm_detail);
      const std::size_t shown = verbose ? r.evidence.size() : std::min<std::size_t>(r.evidence.size(), 2);
      for (std::size_t k = 0; k < shown; ++k) {
        const Evidence& e = r.evidence[k];
        out += fmt::format("   evidence: {}  {}\n", e.source,
                           cutLogLine(e.value.is_string() ? e.value.get<std::string>() : e.value.dump()));
      }
      if (d.hosts.size() > 1) out += fmt::format("   hosts: {} ({} in all)\n", d.hosts.front(), d.hosts.size());
      out += fmt::format("   cause: {}\n", d.explanation);
      out += fmt::format("   fix: {}\n", d.fix);
      for (const auto& c : d.commands) out += fmt::format("     $ {}\n", c);
      if (verbose)
        for (const auto& l : d.links) out += fmt::format("   see: {}\n", l);
    }
    if (info) out += infoText(*info, verbose);
    if (ranks) out += ranksText(*ranks, n > 0);
    if (artefacts) out += doctorArtefactsText(*artefacts, verbose);
    return out;
  }

 private:
  static std::string infoText(const Result& r, bool verbose) {
    const DoctorInfo info = doctorInfoFromResult(r);
    if (info.processes.empty() && info.transports.empty()) return {};
    std::string out = "\nWhat NCCL did:\n";
    if (!info.nccl_versions.empty()) out += fmt::format("  NCCL versions: {}\n", Json(info.nccl_versions).dump());
    if (!info.networks.empty()) out += fmt::format("  network: {}\n", Json(info.networks).dump());
    if (!info.transports.empty()) out += fmt::format("  transports: {}\n", info.transports.dump());
    if (info.channels) out += fmt::format("  channels: {}\n", *info.channels);
    if (verbose)
      for (const Json& p : info.processes) out += fmt::format("  {}\n", p.dump());
    for (const auto& f : info.flags) out += fmt::format("  flag: {}\n", f);
    return out;
  }

  static std::string ranksText(const Result& r, bool diagnosed) {
    const DoctorRanks d = doctorRanksFromResult(r);
    if (!d.first_failure && d.watchdog.empty() && d.notes.empty()) return {};
    std::string out = "\nRanks:\n";
    if (d.first_failure && diagnosed) {
      const LogLine& f = *d.first_failure;
      out +=
          fmt::format("  first failure: {}:{}{}{}{}\n", f.file, f.line, f.host.empty() ? "" : " host " + f.host,
                      f.rank ? fmt::format(" rank {}", *f.rank) : "", f.timestamp.empty() ? "" : " at " + f.timestamp);
    }
    for (const auto& w : d.watchdog)
      out += fmt::format("  watchdog: rank {} timed out at collective #{} ({}){}\n",
                         w.rank ? std::to_string(*w.rank) : "?", w.seq.value_or(-1), w.op.empty() ? "?" : w.op,
                         w.ran_for_ms ? fmt::format(" after {} ms", *w.ran_for_ms) : "");
    if (!d.waited_on_ranks.empty()) {
      const auto shown = std::min<std::size_t>(32, d.waited_on_ranks.size());
      out +=
          fmt::format("  waiting on ranks: {}\n",
                      fmt::join(d.waited_on_ranks.begin(), d.waited_on_ranks.begin() + static_cast<long>(shown), ", "));
    }
    for (const auto& note : d.notes) out += fmt::format("  note: {}\n", note);
    return out;
  }
};

PF_REGISTER_TEXT_VIEW(DoctorText, "doctor");

}  // namespace
}  // namespace pf::reports

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

// A log line of over 160 bytes cut to about 160 in the middle: its start names what failed and its end often
// names where ("... hca mlx5_3", "... ran for 600012 milliseconds"), so both stay. Never inside a UTF-8 sequence.
std::string cutLogLine(const std::string& s) {
  if (s.size() <= 160) return s;
  auto boundary = [&](std::size_t at) {
    while (at > 0 && at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) --at;
    return at;
  };
  // At blanks where there are some near the cut, so that no word is split.
  std::size_t head = s.rfind(' ', 110), tail = s.find(' ', s.size() - 45);
  head = head != std::string::npos && head > 80 ? head : boundary(110);
  tail = tail != std::string::npos && tail < s.size() - 20 ? tail + 1 : boundary(s.size() - 45);
  return s.substr(0, head) + " ... " + s.substr(tail);
}

// "1, 2, 4-63": ascending ranks as ranges, the first 16 of them, then the count.
std::string rankList(const std::vector<int>& ranks) {
  std::string out;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (shown == 16) return out + fmt::format(", ... ({} ranks in all)", ranks.size());
    out += fmt::format("{}{}", shown++ ? ", " : "", ranks[i]);
    if (j > i) out += fmt::format("{}{}", j == i + 1 ? ", " : "-", ranks[j]);
    i = j + 1;
  }
  return out;
}

// When a line was printed: its stamp, else the stamps of the lines around it in its file.
std::string whenPrinted(const LogLine& f) {
  if (!f.timestamp.empty()) return " at " + f.timestamp;
  if (!f.not_later_than.empty())
    return fmt::format(" at or before {} (no stamp of its own; the next stamped line of its file)", f.not_later_than);
  if (!f.not_earlier_than.empty()) return fmt::format(" after {} (no stamp of its own)", f.not_earlier_than);
  return "";
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
    // The Flight Recorder names the rank and the collective a hang is about, which no log line does: it leads.
    if (artefacts) out += doctorArtefactsLead(*artefacts);
    int i = 0;
    for (const Result& r : report.results) {
      if (r.kind != Kind::kDiagnosis) continue;
      const DiagnosisParams d = diagnosisFromResult(r);
      const int hits = r.metrics.value("matching_lines", 0);
      out += fmt::format("{}. [{}] {}  (rule {}, confidence {:.2f}, {} matching line{})\n", ++i, d.category, r.message,
                         d.rule_id, d.confidence, hits, hits == 1 ? "" : "s");
      if (!d.consequence_of.empty()) {
        int at = 0, k = 0;
        for (const Result& c : report.results)
          if (c.kind == Kind::kDiagnosis && (++k, c.key == "doctor." + d.consequence_of)) at = k;
        out += fmt::format("   a consequence of {} (rule {}): it came after that failure, which explains it\n",
                           at ? std::to_string(at) : "the cause above", d.consequence_of);
      }
      if (!d.also_matched.empty())
        out += fmt::format("   the same lines also match: {}\n", fmt::join(d.also_matched, ", "));
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
          fmt::format("  first failure: {}:{}{}{}{}\n", f.file, f.line, f.rank ? fmt::format(" rank {}", *f.rank) : "",
                      f.host.empty() ? "" : " on host " + f.host, whenPrinted(f));
      if (!f.text.empty()) out += fmt::format("    {}\n", cutLogLine(f.text));
    }
    for (const auto& w : d.watchdog)
      out += fmt::format("  watchdog: rank {} timed out at collective #{} ({}){}\n",
                         w.rank ? std::to_string(*w.rank) : "?", w.seq.value_or(-1), w.op.empty() ? "?" : w.op,
                         w.ran_for_ms ? fmt::format(" after {} ms", *w.ran_for_ms) : "");
    if (!d.waited_on_ranks.empty()) out += fmt::format("  waiting on ranks: {}\n", rankList(d.waited_on_ranks));
    for (const auto& note : d.notes) out += fmt::format("  note: {}\n", note);
    return out;
  }
};

PF_REGISTER_TEXT_VIEW(DoctorText, "doctor");

}  // namespace
}  // namespace pf::reports

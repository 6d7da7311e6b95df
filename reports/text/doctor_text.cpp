// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight doctor` in the terminal: the ranked diagnoses (cause, evidence as file:line, fix and commands),
// then what NCCL did (doctor.info) and the per-rank findings (doctor.ranks). --verbose adds every evidence
// line, the links and each process's NCCL setup.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "pf/diagnosis.hpp"
#include "text_view.hpp"

namespace pf::reports {
namespace {

std::string str(const Json& j, const char* name) {
  return j.contains(name) && j.at(name).is_string() ? j.at(name).get<std::string>() : std::string();
}

// A log line of over 160 bytes cut to 157 and "...", never inside a UTF-8 sequence.
std::string cut(const std::string& s) {
  if (s.size() <= 160) return s;
  std::size_t at = 157;
  while (at > 0 && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) --at;
  return s.substr(0, at) + "...";
}

std::string where(const Json& line) {
  return line.is_object() ? fmt::format("{}:{}", str(line, "file"), line.value("line", 0)) : std::string("?");
}

class DoctorText final : public TextView {
 public:
  std::string end(const RunReport& report) override {
    const bool verbose = options().verbose;
    std::string out;
    const Result* info = nullptr;
    const Result* ranks = nullptr;
    int n = 0;
    for (const Result& r : report.results) {
      if (r.key == "doctor.info") info = &r;
      if (r.key == "doctor.ranks") ranks = &r;
    }
    for (const Result& r : report.results)
      if (r.kind == Kind::kDiagnosis) ++n;
    if (n == 0 && info)
      out += fmt::format("No known failure found in {} lines ({} bytes).\n", info->metrics.value("input_lines", 0),
                         info->metrics.value("input_bytes", 0));
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
                           cut(e.value.is_string() ? e.value.get<std::string>() : e.value.dump()));
      }
      if (d.hosts.size() > 1) out += fmt::format("   hosts: {} ({} in all)\n", d.hosts.front(), d.hosts.size());
      out += fmt::format("   cause: {}\n", d.explanation);
      out += fmt::format("   fix: {}\n", d.fix);
      for (const auto& c : d.commands) out += fmt::format("     $ {}\n", c);
      if (verbose)
        for (const auto& l : d.links) out += fmt::format("   see: {}\n", l);
    }
    if (info) out += infoText(*info, verbose);
    if (ranks) out += ranksText(ranks->params, n > 0);
    return out;
  }

 private:
  static std::string infoText(const Result& info, bool verbose) {
    const Json& ij = info.params;
    const Json transports = ij.value("transports", Json::object());
    if (info.rows.empty() && transports.empty()) return {};
    std::string out = "\nWhat NCCL did:\n";
    for (const char* f : {"nccl_versions", "networks"}) {
      const Json v = ij.value(f, Json::array());
      if (!v.empty())
        out += fmt::format("  {}: {}\n", f == std::string("networks") ? "network" : "NCCL versions", v.dump());
    }
    if (!transports.empty()) out += fmt::format("  transports: {}\n", transports.dump());
    if (ij.contains("channels") && !ij.at("channels").is_null())
      out += fmt::format("  channels: {}\n", ij.at("channels").dump());
    if (verbose)
      for (const Json& p : info.rows) out += fmt::format("  {}\n", p.dump());
    for (const Json& f : ij.value("flags", Json::array())) out += fmt::format("  flag: {}\n", str(f, "message"));
    return out;
  }

  static std::string ranksText(const Json& r, bool diagnosed) {
    const Json first = r.value("first_failure", Json());
    const Json watchdog = r.value("watchdog", Json::array());
    const Json notes = r.value("notes", Json::array());
    if (first.is_null() && watchdog.empty() && notes.empty()) return {};
    std::string out = "\nRanks:\n";
    if (!first.is_null() && diagnosed) {
      const std::string host = str(first, "host"), ts = str(first, "timestamp");
      out +=
          fmt::format("  first failure: {}{}{}{}\n", where(first), host.empty() ? "" : " host " + host,
                      first.value("rank", Json()).is_number() ? fmt::format(" rank {}", first["rank"].get<int>()) : "",
                      ts.empty() ? "" : " at " + ts);
    }
    for (const Json& w : watchdog) {
      auto num = [&](const char* f) { return w.contains(f) && w.at(f).is_number() ? w.at(f).dump() : std::string(); };
      out += fmt::format("  watchdog: rank {} timed out at collective #{} ({}){}\n",
                         num("rank").empty() ? "?" : num("rank"), num("seq").empty() ? "-1" : num("seq"),
                         str(w, "op").empty() ? "?" : str(w, "op"),
                         num("ran_for_ms").empty() ? "" : fmt::format(" after {} ms", num("ran_for_ms")));
    }
    const Json waited = r.value("waited_on_ranks", Json::array());
    if (!waited.empty()) {
      std::vector<std::string> shown;
      for (std::size_t i = 0; i < waited.size() && i < 32; ++i) shown.push_back(waited[i].dump());
      out += fmt::format("  waiting on ranks: {}\n", fmt::join(shown, ", "));
    }
    for (const Json& note : notes)
      if (note.is_string()) out += fmt::format("  note: {}\n", note.get<std::string>());
    return out;
  }
};

PF_REGISTER_TEXT_VIEW(DoctorText, "doctor");

}  // namespace
}  // namespace pf::reports

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "report.hpp"

#include "line_normalizer.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace pf::doctor {

std::vector<Result> toResults(const Analysis& a) {
  std::vector<Result> out;
  for (const auto& d : a.diagnoses) {
    Result r;
    r.key = "doctor." + d.rule->id;
    r.kind = "diagnosis";
    r.status = d.confirm == "refuted" ? Status::kWarn : Status::kFail;
    r.message = d.rule->title;
    r.remedy = d.fixText();
    r.host = d.hosts.size() == 1 ? *d.hosts.begin() : "";
    r.rank = d.ranks.size() == 1 ? *d.ranks.begin() : -1;
    r.params = {{"rule_id", d.rule->id},
                {"category", d.rule->category},
                {"confidence", d.rule->confidence},
                {"fix", d.fixText()},
                {"explanation", d.rule->explanation},
                {"commands", d.rule->commands},
                {"links", d.rule->links},
                {"probe", d.rule->probe.empty() ? Json() : Json(d.rule->probe)},
                {"captures", d.captures},
                {"hosts", d.hosts},
                {"ranks", d.ranks},
                {"confirm", d.confirm.empty() ? Json() : Json(d.confirm)}};
    if (!d.confirm.empty()) {
      r.params["confirm_detail"] = d.confirmDetail;
      r.params["confirm_measured"] = d.confirmMeasured;
    }
    r.metrics = {{"confidence", d.rule->confidence}, {"matching_lines", d.hits}};
    for (const auto& e : d.evidence) r.evidence.push_back(e.toJson());
    out.push_back(std::move(r));
  }
  Result info;
  info.key = "doctor.info";
  info.kind = "doctor";
  info.message = "what NCCL did, from its INFO lines";
  Json ij = a.info.toJson();
  info.status = ij["flags"].empty() ? Status::kPass : Status::kWarn;
  info.metrics = {{"input_bytes", a.bytes}, {"input_lines", a.lines}, {"processes", a.info.processes().size()},
                  {"channels", ij["channels"]}};
  info.rows = ij["processes"];
  ij.erase("processes");
  info.params = ij;
  out.push_back(std::move(info));
  Result ranks;
  ranks.key = "doctor.ranks";
  ranks.kind = "doctor";
  ranks.message = a.ranks.notes.empty() ? "per-rank analysis" : a.ranks.notes.front();
  ranks.status = a.ranks.neverInitialised.empty() && a.ranks.waitedOn.empty() ? Status::kPass : Status::kWarn;
  ranks.params = a.ranks.toJson();
  out.push_back(std::move(ranks));
  return out;
}

std::string renderText(const Analysis& a, bool verbose) {
  std::string out;
  if (a.diagnoses.empty()) {
    out += fmt::format("No known failure found in {} lines ({} bytes).\n", a.lines, a.bytes);
  }
  int n = 0;
  for (const auto& d : a.diagnoses) {
    out += fmt::format("{}. [{}] {}  (rule {}, confidence {:.2f}, {} matching line{})\n", ++n, d.rule->category,
                       d.rule->title, d.rule->id, d.rule->confidence, d.hits, d.hits == 1 ? "" : "s");
    if (!d.confirm.empty()) out += fmt::format("   confirm: {} - {}\n", d.confirm, d.confirmDetail);
    const std::size_t shown = verbose ? d.evidence.size() : std::min<std::size_t>(d.evidence.size(), 2);
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& e = d.evidence[i];
      std::string text = e.text.size() > 160 ? utf8Prefix(e.text, 157) + "..." : e.text;
      out += fmt::format("   evidence: {}  {}\n", e.where(), text);
    }
    if (d.hosts.size() > 1) out += fmt::format("   hosts: {} ({} in all)\n", *d.hosts.begin(), d.hosts.size());
    out += fmt::format("   cause: {}\n", d.rule->explanation);
    out += fmt::format("   fix: {}\n", d.fixText());
    for (const auto& c : d.rule->commands) out += fmt::format("     $ {}\n", c);
    if (verbose)
      for (const auto& l : d.rule->links) out += fmt::format("   see: {}\n", l);
  }
  Json ij = a.info.toJson();
  if (!a.info.processes().empty() || !a.info.transports().empty()) {
    out += "\nWhat NCCL did:\n";
    if (!ij["nccl_versions"].empty()) out += fmt::format("  NCCL versions: {}\n", ij["nccl_versions"].dump());
    if (!ij["networks"].empty()) out += fmt::format("  network: {}\n", ij["networks"].dump());
    if (!ij["transports"].empty()) out += fmt::format("  transports: {}\n", ij["transports"].dump());
    if (!ij["channels"].is_null()) out += fmt::format("  channels: {}\n", ij["channels"].dump());
    if (verbose)
      for (const auto& p : ij["processes"]) out += fmt::format("  {}\n", p.dump());
    for (const auto& f : a.info.flags()) out += fmt::format("  flag: {}\n", f.message);
  }
  const auto& r = a.ranks;
  if (r.haveFirst || !r.watchdog.empty() || !r.notes.empty()) {
    out += "\nRanks:\n";
    if (r.haveFirst && !a.diagnoses.empty())
      out += fmt::format("  first failure: {}{}{}{}\n", r.firstFailure.where(),
                         r.firstFailure.host.empty() ? "" : " host " + r.firstFailure.host,
                         r.firstFailure.rank >= 0 ? fmt::format(" rank {}", r.firstFailure.rank) : "",
                         r.firstFailure.timestamp.empty() ? "" : " at " + r.firstFailure.timestamp);
    for (const auto& w : r.watchdog)
      out += fmt::format("  watchdog: rank {} timed out at collective #{} ({}){}\n",
                         w.rank < 0 ? std::string("?") : std::to_string(w.rank), w.seq, w.op.empty() ? "?" : w.op,
                         w.ranForMs < 0 ? "" : fmt::format(" after {} ms", w.ranForMs));
    if (!r.waitedOn.empty())
      out += fmt::format("  waiting on ranks: {}\n", fmt::join(r.waitedOn.begin(),
                                                               r.waitedOn.begin() + std::min<long>(32, r.waitedOn.size()), ", "));
    for (const auto& note : r.notes) out += fmt::format("  note: {}\n", note);
  }
  return out;
}

}  // namespace pf::doctor

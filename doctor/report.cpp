// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <utility>

#include "line_normalizer.hpp"
#include "pf/json_field.hpp"

namespace pf::doctor {

std::vector<Result> toResults(const Analysis& a) {
  std::vector<Result> out;
  for (const auto& d : a.diagnoses) {
    Result r;
    r.key = "doctor." + d.rule->id;
    r.kind = Kind::kDiagnosis;
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
                {"probe", jsonOrNull(d.rule->probe)},
                {"captures", d.captures},
                {"hosts", d.hosts},
                {"ranks", d.ranks},
                {"confirm", jsonOrNull(d.confirm)},
                {"consequence_of", d.consequenceOf ? Json(d.consequenceOf->id) : Json()},
                {"also_matched", d.alsoMatched}};
    if (!d.confirm.empty()) {
      r.params["confirm_detail"] = d.confirmDetail;
      r.params["confirm_measured"] = d.confirmMeasured;
    }
    r.metrics = {{"confidence", d.rule->confidence}, {"matching_lines", d.hits}};
    Json lines = Json::array();
    for (const auto& e : d.evidence) {
      r.evidence.push_back({"log line", e.text, "", e.where()});
      lines.push_back(e.toJson());  // the host, rank and timestamp each line names
    }
    r.params["lines"] = std::move(lines);
    if (!d.similar.empty()) {
      Json near = Json::array();
      for (const auto& n : d.similar)
        near.push_back({{"id", n.report->id}, {"thread", n.report->thread}, {"similarity", n.similarity}});
      r.params["similar_reports"] = std::move(near);
    }
    out.push_back(std::move(r));
  }
  Result info;
  info.key = "doctor.info";
  info.kind = Kind::kDoctor;
  info.message = "what NCCL did, from its INFO lines";
  Json ij = a.info.toJson();
  info.status = ij["flags"].empty() ? Status::kPass : Status::kWarn;
  info.metrics = {{"input_bytes", a.bytes},
                  {"input_lines", a.lines},
                  {"processes", a.info.processes().size() + a.info.processesNotListed()},
                  {"channels", ij["channels"]}};
  // Moved, not copied: a job of thousands of processes has as many rows.
  info.rows = std::move(ij["processes"]);
  ij.erase("processes");
  info.params = std::move(ij);
  out.push_back(std::move(info));
  Result ranks;
  ranks.key = "doctor.ranks";
  ranks.kind = Kind::kDoctor;
  ranks.message = a.ranks.notes.empty() ? "per-rank analysis" : a.ranks.notes.front();
  ranks.status = a.ranks.neverInitialised.empty() && a.ranks.waitedOn.empty() ? Status::kPass : Status::kWarn;
  ranks.params = a.ranks.toJson();
  out.push_back(std::move(ranks));
  return out;
}

}  // namespace pf::doctor

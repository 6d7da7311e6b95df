// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "doctor_artefacts_text.hpp"

#include <fmt/format.h>

#include <map>

namespace pf::reports {
namespace {

std::string daStr(const Json& j, const char* k) {
  return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : "";
}

// "2026-04-22T10:42:37.512000Z  node3 rank 3  [kind] text  (file:line)"
std::string daEvent(const Json& e) {
  std::string when = daStr(e, "time_utc");
  const bool ordered = e.value("ordered", false);
  if (when.empty())
    when = daStr(e, "stamp").empty() ? "(no time)" : daStr(e, "stamp") + (ordered ? " (year unknown)" : " (unordered)");
  if (e.value("stamp_of_next_line", false)) when = "at or before " + when;
  std::string who;
  if (!daStr(e, "host").empty()) who += " " + daStr(e, "host");
  if (e.contains("rank") && e["rank"].is_number_integer()) who += fmt::format(" rank {}", e["rank"].get<int>());
  for (const char* k : {"gpu", "nic", "peer"})
    if (!daStr(e, k).empty()) who += fmt::format(" {} {}", k, daStr(e, k));
  std::string text = daStr(e, "text");
  if (text.size() > 140) text = text.substr(0, 137) + "...";
  const std::string where = e.contains("line") && e["line"].is_number()
                                ? fmt::format("{}:{}", daStr(e, "file"), e["line"].get<long>())
                                : daStr(e, "file");
  return fmt::format("{}{}  [{}] {}  ({})", when, who, daStr(e, "kind"), text, where);
}

}  // namespace

std::string doctorArtefactsLead(const Result& r) {
  std::string out;
  if (!r.params.contains("findings")) return out;
  for (const Json& f : r.params["findings"])
    if (daStr(f, "id").rfind("flight_recorder.", 0) == 0 && daStr(f, "status") == "fail")
      out += fmt::format("Flight Recorder: {}\n   fix: {}\n   (its frames and groups: Artefacts, below)\n\n",
                         daStr(f, "message"), daStr(f, "remedy"));
  return out;
}

std::string doctorArtefactsText(const Result& r, bool verbose) {
  const Json& p = r.params;
  if (!p.contains("inputs")) return {};
  std::string out = "\nArtefacts:\n";
  std::map<std::string, int> kinds;
  for (const Json& in : p["inputs"]) ++kinds[daStr(in, "kind")];
  std::string list;
  for (const auto& [k, n] : kinds) list += fmt::format("{}{} {}", list.empty() ? "" : ", ", n, k);
  out += fmt::format("  read: {} file{} ({})\n", p["inputs"].size(), p["inputs"].size() == 1 ? "" : "s", list);
  for (const Json& s : p["skipped"]) out += fmt::format("  skipped: {} - {}\n", daStr(s, "file"), daStr(s, "reason"));
  if (p.contains("first_failure") && p["first_failure"].is_object())
    out += "  first failure: " + daEvent(p["first_failure"]) + "\n";
  const std::size_t shown = verbose ? p["timeline"].size() : std::min<std::size_t>(p["timeline"].size(), 8);
  if (shown > 0) {
    out += fmt::format("  timeline ({} of {} events{}):\n", shown, r.metrics.value("events", 0),
                       verbose ? "" : "; -v shows more");
    for (std::size_t i = 0; i < shown; ++i) out += "    " + daEvent(p["timeline"][i]) + "\n";
  }
  for (const Json& f : p["findings"]) {
    std::string who;
    if (!daStr(f, "host").empty()) who += " host " + daStr(f, "host");
    if (f.contains("rank") && f["rank"].is_number_integer()) who += fmt::format(" rank {}", f["rank"].get<int>());
    const std::string where = f.contains("line") && f["line"].is_number()
                                  ? fmt::format("{}:{}", daStr(f, "file"), f["line"].get<long>())
                                  : daStr(f, "file");
    out += fmt::format("  [{}] {}{}: {}  ({})\n", daStr(f, "status"), daStr(f, "id"), who, daStr(f, "message"), where);
    out += fmt::format("     fix: {}\n", daStr(f, "remedy"));
  }
  if (p.contains("sections") && p["sections"].is_object())
    for (const auto& [name, sec] : p["sections"].items()) {
      if (!sec.is_object() || !sec.contains("lines")) continue;
      out += fmt::format("  {}:\n", sec.contains("title") ? daStr(sec, "title") : name);
      for (const Json& l : sec["lines"])
        if (l.is_string()) out += "    " + l.get<std::string>() + "\n";
    }
  for (const Json& n : p["not_given"]) out += fmt::format("  not given: {}\n", n.get<std::string>());
  for (const Json& n : p["clock_notes"]) out += fmt::format("  clocks: {}\n", n.get<std::string>());
  if (p.contains("placement_notes"))
    for (const Json& n : p["placement_notes"]) out += fmt::format("  placed: {}\n", n.get<std::string>());
  return out;
}

}  // namespace pf::reports

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/diagnosis.hpp"

#include <fmt/format.h>

#include "pf/error.hpp"
#include "pf/json_field.hpp"

namespace pf {
DiagnosisParams diagnosisFromResult(const Result& r) {
  DiagnosisParams d;
  const Json& p = r.params;
  readField(p, "rule_id", d.rule_id, "doctor");
  readField(p, "category", d.category, "doctor");
  readField(p, "confidence", d.confidence, "doctor");
  readField(p, "fix", d.fix, "doctor");
  readField(p, "explanation", d.explanation, "doctor");
  readField(p, "commands", d.commands, "doctor");
  readField(p, "links", d.links, "doctor");
  readField(p, "hosts", d.hosts, "doctor");
  readField(p, "ranks", d.ranks, "doctor");
  readField(p, "confirm", d.confirm, "doctor");
  readField(p, "confirm_detail", d.confirm_detail, "doctor");
  readField(p, "consequence_of", d.consequence_of, "doctor");
  readField(p, "also_matched", d.also_matched, "doctor");
  return d;
}

namespace {
template <typename T>
std::optional<T> optional(const Json& j, const char* name) {
  if (!j.is_object() || !j.contains(name) || !j.at(name).is_number()) return std::nullopt;
  return j.at(name).get<T>();
}
}  // namespace

DoctorInfo doctorInfoFromResult(const Result& r) {
  DoctorInfo d;
  const Json& p = r.params;
  readField(r.metrics, "input_lines", d.input_lines, "doctor");
  readField(r.metrics, "input_bytes", d.input_bytes, "doctor");
  readField(p, "nccl_versions", d.nccl_versions, "doctor");
  readField(p, "networks", d.networks, "doctor");
  if (p.contains("transports") && p.at("transports").is_object()) d.transports = p.at("transports");
  d.channels = optional<int>(p, "channels");
  if (p.contains("flags") && p.at("flags").is_array())
    for (const Json& f : p.at("flags"))
      if (f.is_object() && f.contains("message") && f.at("message").is_string())
        d.flags.push_back(f.at("message").get<std::string>());
  if (r.rows.is_array()) d.processes = r.rows.get_ref<const Json::array_t&>();
  return d;
}

DoctorRanks doctorRanksFromResult(const Result& r) {
  DoctorRanks d;
  const Json& p = r.params;
  if (p.contains("first_failure") && p.at("first_failure").is_object()) {
    const Json& f = p.at("first_failure");
    LogLine l;
    readField(f, "file", l.file, "doctor");
    readField(f, "line", l.line, "doctor");
    readField(f, "host", l.host, "doctor");
    readField(f, "timestamp", l.timestamp, "doctor");
    readField(f, "text", l.text, "doctor");
    readField(f, "not_earlier_than", l.not_earlier_than, "doctor");
    readField(f, "not_later_than", l.not_later_than, "doctor");
    l.rank = optional<int>(f, "rank");
    d.first_failure = l;
  }
  if (p.contains("watchdog") && p.at("watchdog").is_array())
    for (const Json& w : p.at("watchdog")) {
      DoctorRanks::Watchdog x;
      x.rank = optional<int>(w, "rank");
      x.seq = optional<int64_t>(w, "seq");
      x.ran_for_ms = optional<int64_t>(w, "ran_for_ms");
      readField(w, "op", x.op, "doctor");
      d.watchdog.push_back(std::move(x));
    }
  readField(p, "waited_on_ranks", d.waited_on_ranks, "doctor");
  readField(p, "ranks_without_logs", d.ranks_without_logs, "doctor");
  d.world_size = optional<int>(p, "world_size");
  readField(p, "notes", d.notes, "doctor");
  return d;
}

}  // namespace pf

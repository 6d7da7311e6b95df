// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "elastic_summary.hpp"

#include <charconv>
#include <string>

#include "clock.hpp"

namespace pf::doctor {
namespace {

// The value of a "name      : value" field line, or nullopt when `msg` is not that field.
std::optional<std::string_view> esField(std::string_view msg, std::string_view name) {
  while (!msg.empty() && msg.front() == ' ') msg.remove_prefix(1);
  if (!msg.starts_with(name)) return std::nullopt;
  msg.remove_prefix(name.size());
  std::size_t i = 0;
  while (i < msg.size() && msg[i] == ' ') ++i;
  if (i >= msg.size() || msg[i] != ':') return std::nullopt;
  msg.remove_prefix(i + 1);
  while (!msg.empty() && msg.front() == ' ') msg.remove_prefix(1);
  while (!msg.empty() && (msg.back() == ' ' || msg.back() == '\r')) msg.remove_suffix(1);
  return msg;
}

// The leading integer of `s` (a sign allowed); nullopt when it has none.
std::optional<int> esInt(std::string_view s) {
  int v = 0;
  if (std::from_chars(s.data(), s.data() + s.size(), v).ec != std::errc()) return std::nullopt;
  return v;
}

}  // namespace

bool ElasticSummary::line(std::string_view msg, std::size_t lineNo, std::optional<TimelineEvent>& out) {
  out.reset();
  if (msg.find("Root Cause (first observed failure)") != std::string_view::npos) {
    section_ = Section::kRoot;
    return true;
  }
  if (msg.starts_with("Failures:")) {
    section_ = Section::kOthers;
    return true;
  }
  if (auto v = esField(msg, "time")) {
    // "2026-04-22_10:42:37": ISO 8601 with '_' between date and time (Python's isoformat(sep="_")).
    std::string iso(*v);
    if (iso.size() > 10 && iso[10] == '_') iso[10] = ' ';
    const Stamp s = parseStamp(iso);
    if (s.clock == Clock::kNone) return false;
    time_ = s;
    time_.text = std::string(*v);
    host_.clear();
    rank_ = localRank_ = -1;
    return true;
  }
  if (time_.clock == Clock::kNone) return false;  // the other fields only within a record
  if (auto v = esField(msg, "host")) {
    host_ = std::string(v->substr(0, v->find(' ')));
    return true;
  }
  if (auto v = esField(msg, "rank"); v && v->find("(local_rank:") != std::string_view::npos) {
    rank_ = esInt(*v).value_or(-1);
    std::string_view local = v->substr(v->find("(local_rank:") + std::char_traits<char>::length("(local_rank:"));
    while (!local.empty() && local.front() == ' ') local.remove_prefix(1);
    localRank_ = esInt(local).value_or(-1);
    return true;
  }
  auto v = esField(msg, "exitcode");
  if (!v || v->find("(pid:") == std::string_view::npos || rank_ < 0) return false;
  TimelineEvent e;
  e.stamp = time_;
  e.host = host_;
  e.rank = rank_;
  e.kind = "elastic-exit";
  e.consequence = section_ == Section::kOthers;
  e.line = lineNo;
  const std::optional<int> code = esInt(*v);
  std::string what = "torch elastic: rank " + std::to_string(rank_);
  if (localRank_ >= 0) what += " (local rank " + std::to_string(localRank_) + ")";
  what += " exited with code " + std::string(*v);
  if (code && *code < 0) what += ", killed by signal " + std::to_string(-*code);
  if (section_ == Section::kRoot) what += "; the first failure torch elastic observed on its node";
  e.text = eventText(what);
  out = std::move(e);
  time_ = {};  // one event per failure record
  return true;
}

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The "doctor.artefacts" result (docs/doctor.md): the timeline across artefacts and its verdict.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "clock.hpp"
#include "line_events.hpp"
#include "line_normalizer.hpp"
#include "pf/json_field.hpp"
#include "placement.hpp"
#include "rule_catalog.hpp"
#include "timeline.hpp"

namespace pf::doctor {
namespace {

const char* trClock(Clock c) {
  switch (c) {
    case Clock::kUtc: return "utc";
    case Clock::kWall: return "wall";
    case Clock::kWallNoYear: return "wall-no-year";
    case Clock::kBoot: return "boot";
    case Clock::kNone: break;
  }
  return "none";
}

// The word after `mark` in an NCCL line ("hca mlx5_3", "from peer 10.0.0.4<47372>").
std::string trWordAfter(const std::string& s, const char* mark) {
  const std::size_t at = s.find(mark);
  if (at == std::string::npos) return "";
  const std::size_t b = at + std::char_traits<char>::length(mark);
  return s.substr(b, s.find_first_of(" ,;)\r", b) - b);
}

// A diagnosis's failing line as an event: the rules decided it is a failure; its own stamp places it.
TimelineEvent trFromLog(const FailingLine& fl) {
  const Evidence& ev = fl.evidence;
  TimelineEvent e;
  e.stamp = ev.timestamp.empty() ? parseStamp(ev.text) : parseStamp(ev.timestamp);
  if (e.stamp.clock == Clock::kNone && !ev.notLaterThan.empty()) {
    e.stamp = parseStamp(ev.notLaterThan);
    e.stampOfNextLine = e.stamp.clock != Clock::kNone;
  }
  e.host = ev.host;
  if (e.host.empty()) {  // a kernel log's line that a rule read and no reader event holds (the OOM killer's)
    std::size_t used = 0;
    (void)parseStamp(ev.text, &used);
    e.host = std::string(kernelLineHost(std::string_view(ev.text).substr(used)));
  }
  e.rank = ev.rank;
  e.kind = "rule:" + fl.rule->id;
  e.consequence = fl.rule->consequence;
  e.text = ev.text;
  e.file = ev.file;
  e.line = ev.line;
  e.nic = trWordAfter(ev.text, "hca ");
  if (e.nic.empty()) e.nic = trWordAfter(ev.text, "dev ");
  e.peer = trWordAfter(ev.text, "from peer ");
  if (e.peer.empty()) e.peer = trWordAfter(ev.text, "remoteGids");
  return e;
}

Json trEvent(const OrderedEvent& o) {
  const TimelineEvent& e = *o.event;
  Json j = Json::object();
  j["time_utc"] = o.utcUs ? Json(isoUtc(*o.utcUs)) : Json();
  j["ordered"] = o.orderUs.has_value();
  j["clock"] = trClock(e.stamp.clock);
  // Every string here came from an artefact's bytes: made valid UTF-8, as JSON must be.
  j["stamp"] = jsonOrNull(validUtf8(e.stamp.text));
  j["stamp_of_next_line"] = e.stampOfNextLine;
  j["host"] = jsonOrNull(validUtf8(e.host));
  j["rank"] = e.rank < 0 ? Json() : Json(e.rank);
  j["gpu"] = jsonOrNull(validUtf8(e.gpu));
  j["nic"] = jsonOrNull(validUtf8(e.nic));
  j["peer"] = jsonOrNull(validUtf8(e.peer));
  j["kind"] = validUtf8(e.kind);
  j["failure"] = e.failure;
  j["consequence"] = e.consequence;
  j["text"] = validUtf8(e.text);
  j["file"] = validUtf8(e.file);
  j["line"] = e.line == 0 ? Json() : Json(e.line);
  return j;
}

// A kind's section, every string made valid UTF-8: file names and dump contents are bytes, JSON is UTF-8.
Json trValidStrings(const Json& j) {
  if (j.is_string()) return validUtf8(j.get<std::string>());
  if (j.is_array()) {
    Json out = Json::array();
    for (const Json& x : j) out.push_back(trValidStrings(x));
    return out;
  }
  if (j.is_object()) {
    Json out = Json::object();
    for (const auto& [k, v] : j.items()) out[validUtf8(k)] = trValidStrings(v);
    return out;
  }
  return j;
}

}  // namespace

Result ArtefactSession::result(const Analysis& a, const std::vector<SkippedInput>& walkSkipped) {
  if (!jobsFinished_) {
    for (auto& [key, state] : jobStates_)
      if (state) state->finish(out_);
    jobsFinished_ = true;
  }
  std::vector<TimelineEvent> events = out_.events;
  // A line both a reader and a rule took is one event: the reader's fields (GPU, anchored time), the rule's name.
  std::map<std::pair<std::string, std::size_t>, std::size_t> placed;
  for (std::size_t i = 0; i < events.size(); ++i)
    if (events[i].line) placed.emplace(std::make_pair(events[i].file, events[i].line), i);
  for (const auto& fl : a.failingLines) {
    if (!fl.rule) continue;
    TimelineEvent e = trFromLog(fl);
    auto it = placed.find({e.file, e.line});
    if (it == placed.end()) {
      events.push_back(std::move(e));
      continue;
    }
    TimelineEvent& had = events[it->second];
    had.kind = e.kind;
    had.consequence = e.consequence;
    had.failure = true;
    if (had.nic.empty()) had.nic = e.nic;
    if (had.peer.empty()) had.peer = e.peer;
    if (had.rank < 0) had.rank = e.rank;
  }
  // The hosts the job's artefacts name: NCCL's processes, and every event's and finding's (srun's, RAS's, syslog's).
  std::set<std::string> jobHosts, namedHosts;
  for (const auto& [who, p] : a.info.processes())
    if (!p.host.empty()) jobHosts.insert(p.host);
  namedHosts = jobHosts;
  for (const auto& e : events) namedHosts.insert(e.host);
  for (const auto& f : out_.findings) namedHosts.insert(f.host);
  namedHosts.erase("");
  std::vector<std::string> placementNotes;
  const std::size_t hostlessLogs = placeHostlessKernelLogs(out_, events, namedHosts, placementNotes);
  // The process an Xid names: its rank from its Init line (the job's largest communicator), else from RAS.
  int largestComm = 0;
  for (const auto& [id, c] : a.info.comms()) largestComm = std::max(largestComm, c.nranks);
  placeXidProcesses(
      events,
      [&](const std::string& host, long pid) {
        const int rank = a.info.worldRankOf(host, pid, largestComm);
        if (rank >= 0) return rank;
        const auto it = out_.processRanks.find({host, pid});
        return it == out_.processRanks.end() ? -1 : it->second;
      },
      placementNotes);
  if (!rankedByRas_.empty())
    placementNotes.push_back(fmt::format("the rank{} of {} (no Init line in the logs given) as RAS lists the process",
                                         rankedByRas_.size() == 1 ? "" : "s", fmt::join(rankedByRas_, ", ")));
  std::vector<std::string> notes;
  const std::vector<OrderedEvent> ordered = orderEvents(events, options_, notes);
  for (const auto& o : ordered)
    if (o.orderUs && o.event->kind.rfind("rule:", 0) == 0) {
      auto [it, added] = ruleFirstUs_.emplace(o.event->kind.substr(5), *o.orderUs);
      if (!added) it->second = std::min(it->second, *o.orderUs);
    }

  // The first failure: the earliest failing event that is not a usual consequence of another; else a cause with no
  // comparable time (an NCCL before 2.26 stamps no line: its error still came before the watchdog timeouts that
  // followed it); else the earliest consequence, timed first.
  const OrderedEvent* first = nullptr;
  for (int pass = 0; pass < 4 && !first; ++pass)
    for (const auto& o : ordered)
      if (o.event->failure && (pass % 2 == 1 || o.orderUs) && (pass >= 2 || !o.event->consequence)) {
        first = &o;
        break;
      }
  const bool timedConsequence = std::any_of(ordered.begin(), ordered.end(), [](const OrderedEvent& o) {
    return o.event->failure && o.orderUs && o.event->consequence;
  });
  if (first && !first->orderUs)
    notes.push_back(timedConsequence && !first->event->consequence
                        ? "the first failure carries no time (its log printed none): it is the first cause in input "
                          "order, placed before the timed failures, which usually follow a cause (watchdog timeouts)"
                        : "no failing event carries a time that can be compared: the first failure is the first in "
                          "input order");

  // What was not given: kinds of artefact absent, and ranks a per-rank kind does not cover.
  std::set<std::string> kinds;
  for (const auto& in : inputs_) kinds.insert(in.kind);
  std::vector<std::string> notGiven;
  auto absent = [&](std::initializer_list<const char*> keys, const char* what) {
    for (const char* k : keys)
      if (kinds.count(k)) return;
    notGiven.push_back(what);
  };
  absent({"kernel-log"}, "kernel logs (dmesg -T or journalctl -k of each node)");
  absent({"ras-text", "ras-json"}, "NCCL RAS output (ncclras)");
  absent({"torchelastic-error"}, "torchelastic error files (TORCHELASTIC_ERROR_FILE)");
  absent({"flight-recorder"}, "Flight Recorder dumps (TORCH_FR_DUMP_TEMP_FILE)");
  // Per-node artefacts: the hosts the logs name against the hosts those artefacts name.
  for (const auto& [what, hosts] : out_.hostCoverage) {
    std::vector<std::string> missing;
    for (const auto& h : jobHosts)
      if (!hosts.count(h)) missing.push_back(h);
    const std::string unplaced = what == "kernel logs" && hostlessLogs
                                     ? fmt::format("; {} kernel log{} given name{} no host", hostlessLogs,
                                                   hostlessLogs == 1 ? "" : "s", hostlessLogs == 1 ? "s" : "")
                                     : "";
    if (!missing.empty() && missing.size() <= 32)
      notGiven.push_back(fmt::format("{} of {} (none of those given names {}{})", what, fmt::join(missing, ", "),
                                     missing.size() == 1 ? "it" : "them", unplaced));
    else if (!missing.empty())
      notGiven.push_back(
          fmt::format("{} of {} of the {} hosts the logs name{}", what, missing.size(), jobHosts.size(), unplaced));
  }
  const int world = std::max(out_.worldSize, a.ranks.worldSize);
  for (const auto& [what, ranks] : out_.coverage) {
    if (world <= 0) continue;
    std::vector<int> missing;
    for (int r = 0; r < world && r < 1000000; ++r)
      if (!ranks.count(r)) missing.push_back(r);
    if (!missing.empty())
      notGiven.push_back(fmt::format(
          "{} of ranks {} ({} of {} ranks{})", what, rankRanges(missing), missing.size(), world,
          what == "torchelastic error files" ? "; torchelastic writes one only for a rank whose process raised" : ""));
  }

  Result r;
  r.key = "doctor.artefacts";
  r.kind = Kind::kDoctor;
  Json inputs = Json::array(), skipped = Json::array(), findings = Json::array(), timeline = Json::array();
  for (const auto& in : inputs_)
    inputs.push_back({{"file", validUtf8(in.file)}, {"kind", in.kind}, {"description", in.description}});
  for (const std::vector<SkippedInput>* list : {&walkSkipped, &std::as_const(skipped_)})
    for (const auto& s : *list) skipped.push_back({{"file", validUtf8(s.file)}, {"reason", validUtf8(s.reason)}});
  bool fail = false;
  // A rank RAS finds behind the others, on the rank or host of the job's first failure: that failure is why it
  // stopped launching collectives, not a divergent code path.
  auto remedyOf = [&](const ArtefactFinding& f) {
    if (!first || f.id != "ras.collective_lagging") return f.remedy;
    const TimelineEvent& e = *first->event;
    const bool sameRank = f.rank >= 0 && e.rank == f.rank;
    if (!sameRank && (f.host.empty() || e.host != f.host || (e.rank >= 0 && f.rank >= 0))) return f.remedy;
    return fmt::format(
        "the job's first failure was {} ({}:{}): that failure, not a divergent code path, is the "
        "likely reason this rank is behind; fix it first",
        sameRank ? std::string("this rank's own") : "on this rank's host " + f.host, e.file, e.line);
  };
  for (const auto& f : out_.findings) {
    fail = fail || f.fail;
    findings.push_back({{"id", validUtf8(f.id)},
                        {"status", f.fail ? "fail" : "warn"},
                        {"host", jsonOrNull(validUtf8(f.host))},
                        {"rank", f.rank < 0 ? Json() : Json(f.rank)},
                        {"message", validUtf8(f.message)},
                        {"remedy", validUtf8(remedyOf(f))},
                        {"file", validUtf8(f.file)},
                        {"line", f.line == 0 ? Json() : Json(f.line)},
                        {"text", validUtf8(f.text)}});
    r.evidence.push_back(
        {validUtf8(f.id), validUtf8(f.text), "", validUtf8(f.line ? f.file + ":" + std::to_string(f.line) : f.file)});
  }
  for (const auto& o : ordered) {
    if (timeline.size() >= options_.maxEvents && &o != first) continue;
    timeline.push_back(trEvent(o));
  }
  for (auto* list : {&notGiven, &notes, &placementNotes})
    for (auto& n : *list) n = validUtf8(n);
  r.params = {{"inputs", inputs},
              {"skipped", skipped},
              {"first_failure", first ? trEvent(*first) : Json()},
              {"timeline", timeline},
              {"findings", findings},
              {"not_given", notGiven},
              {"clock_notes", notes},
              {"placement_notes", placementNotes},
              {"world_size", world > 0 ? Json(world) : Json()},
              {"sections", trValidStrings(out_.sections)}};
  r.metrics = {{"files_read", inputs_.size()},
               {"files_skipped", skipped.size()},
               {"events", ordered.size()},
               {"findings", out_.findings.size()}};
  r.status = fail ? Status::kFail : (!findings.empty() || !skipped.empty()) ? Status::kWarn : Status::kPass;
  if (first) {
    const TimelineEvent& e = *first->event;
    first_ = e;
    firstUtcUs_ = first->utcUs;
    r.message = validUtf8(fmt::format(
        "first failure across {} artefact file{}: {}:{}{}{}", inputs_.size(), inputs_.size() == 1 ? "" : "s", e.file,
        e.line, e.host.empty() ? "" : " host " + e.host, e.rank < 0 ? "" : fmt::format(" rank {}", e.rank)));
    r.host = validUtf8(e.host);
    r.rank = e.rank;
  } else {
    r.message = fmt::format("{} artefact file{} read; no failure placed in time", inputs_.size(),
                            inputs_.size() == 1 ? "" : "s");
  }
  for (const auto& f : out_.findings)
    if (f.fail && r.remedy.empty()) r.remedy = validUtf8(remedyOf(f));
  return r;
}

RankLookup ArtefactSession::rankLookup() {
  return [this](const std::string& host, long pid) {
    const auto it = out_.processRanks.find({host, pid});
    if (it == out_.processRanks.end()) return -1;
    if (rankedByRas_.size() < 16) rankedByRas_.insert(fmt::format("{}:{}", host, pid));
    return it->second;
  };
}

void ArtefactSession::alignRanks(Analysis& a) const {
  if (!first_ || first_->line == 0) return;
  for (const auto& fl : a.failingLines)
    if (fl.rule && fl.evidence.line == first_->line && fl.evidence.file == first_->file) {
      Evidence e = fl.evidence;
      // What the timeline's readers added: the host a kernel log names, the UTC time of a syslog stamp.
      if (e.host.empty()) e.host = first_->host;
      if (e.rank < 0) e.rank = first_->rank;
      if (e.timestamp.empty() && !first_->stampOfNextLine && firstUtcUs_) e.timestamp = isoUtc(*firstUtcUs_);
      a.ranks.firstFailure = std::move(e);
      a.ranks.haveFirst = true;
      return;
    }
}

void ArtefactSession::alignDiagnoses(Analysis& a) const {
  auto& ds = a.diagnoses;
  auto timeOf = [&](const Diagnosis& d) -> std::optional<int64_t> {
    auto it = ruleFirstUs_.find(d.rule->id);
    return it == ruleFirstUs_.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  constexpr int64_t kWindowUs = static_cast<int64_t>(kExplainWindowS * 1e6);
  // Stamps to the second (syslog, NCCL's default WARN stamps) may put the explaining event up to a second after.
  constexpr int64_t kSlackUs = 1'000'000;
  for (std::size_t i = 0; i < ds.size(); ++i) {
    const auto& by = ds[i].rule->explainedBy;
    const auto effect = timeOf(ds[i]);
    if (by.empty() || !effect) continue;
    for (std::size_t j = 0; j < ds.size(); ++j) {
      const auto cause = timeOf(ds[j]);
      if (j == i || !cause || std::find(by.begin(), by.end(), ds[j].rule->id) == by.end() ||
          *cause > *effect + kSlackUs || *effect - *cause > kWindowUs)
        continue;
      ds[i].consequenceOf = ds[j].rule;
      if (i < j) {  // ranked above its cause: move it to just after
        std::rotate(ds.begin() + static_cast<std::ptrdiff_t>(i), ds.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                    ds.begin() + static_cast<std::ptrdiff_t>(j) + 1);
        --i;  // the diagnosis now at i has not been looked at
      }
      break;
    }
  }
}

}  // namespace pf::doctor

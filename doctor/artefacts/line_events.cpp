// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "line_events.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "clock.hpp"
#include "line_markers.hpp"
#include "line_normalizer.hpp"
#include "line_search.hpp"
#include "multi_literal.hpp"
#include "pf/kernel_log.hpp"

namespace pf::doctor {
namespace {

bool leHas(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// The number after `mark` in `s` ("task 3" -> 3), -1 when none.
int leNumberAfter(std::string_view s, std::string_view mark) {
  const std::size_t at = s.find(mark);
  if (at == std::string_view::npos) return -1;
  std::size_t i = at + mark.size();
  int v = 0, n = 0;
  while (i < s.size() && n < 7 && std::isdigit(static_cast<unsigned char>(s[i]))) v = v * 10 + (s[i++] - '0'), ++n;
  return n ? v : -1;
}

// "[Rank 3]" / "[PG ID 0 PG GUID 0(default_pg) Rank 3]" in PyTorch's messages.
int leRankInText(std::string_view s) {
  for (std::size_t at = 0; (at = s.find("Rank ", at)) != std::string_view::npos; ++at) {
    if (at > 0 && s[at - 1] != '[' && s[at - 1] != ' ') continue;
    const int r = leNumberAfter(s.substr(at), "Rank ");
    const std::size_t end = s.find(']', at);
    if (r >= 0 && end != std::string_view::npos && end < at + 12) return r;
  }
  return -1;
}

std::string_view leWordBefore(std::string_view s, std::size_t at) {
  std::size_t e = at;
  while (e > 0 && (s[e - 1] == ':' || s[e - 1] == ' ')) --e;
  std::size_t b = e;
  while (b > 0 && s[b - 1] != ' ') --b;
  return s.substr(b, e - b);
}

// The same wall stamp moved by `deltaUs` (a boot offset converted through an anchor).
Stamp leShifted(const Stamp& w, int64_t deltaUs, const std::string& text) {
  Stamp s = w;
  const int year = w.year ? w.year : 2001;  // a year without Feb 29 for a stamp with none
  int64_t us = daysFromCivil(year, w.month, w.day) * 86400000000 + w.usOfDay + deltaUs;
  const Stamp d = [&] {
    Stamp t;
    const std::string iso = isoUtc(us);
    t = parseStamp(iso);
    return t;
  }();
  s.year = w.year ? d.year : 0;
  s.month = d.month;
  s.day = d.day;
  s.usOfDay = d.usOfDay;
  s.text = text;
  return s;
}

// A detail line joined to its finding's text, up to a bound (a report of thousands of failed pairs stays readable).
void leAppend(std::string& text, std::string_view more) {
  if (text.size() < 2000) text += " | " + eventText(more);
}

}  // namespace

std::string_view kernelLineHost(std::string_view msg, std::size_t* used) {
  const std::size_t k = msg.find(" kernel: ");
  if (k == std::string_view::npos || k == 0 || k >= 64 || leHas(msg.substr(0, k), " ")) return {};
  if (used) *used = k + 9;
  return msg.substr(0, k);
}

void LineEvents::add(TimelineEvent e) {
  e.file = file_;
  events_.push_back(std::move(e));
}

void LineEvents::line(std::string_view raw, std::size_t lineNo) {
  if (raw.size() > 4096) raw = raw.substr(0, 4096);  // no event needs more; a runaway line costs nothing more
  const NormLine n = normalizeLine(raw);
  TimelineEvent e;
  e.line = lineNo;
  e.host = n.host;
  e.rank = n.launcherRank;
  std::string_view msg = n.text;
  std::size_t used = 0;
  if (!n.timestamp.empty()) e.stamp = parseStamp(n.timestamp);
  if (e.stamp.clock == Clock::kNone) {
    e.stamp = parseStamp(msg, &used);
    msg.remove_prefix(used);
  }
  // Syslog and journal lines: "node7 kernel: [12345.678901] message" after the time.
  std::size_t kernelUsed = 0;
  if (const std::string_view host = kernelLineHost(msg, &kernelUsed); !host.empty()) {
    e.host = std::string(host);
    if (kernelHosts_.size() < 64) kernelHosts_.insert(e.host);
    msg.remove_prefix(kernelUsed);
    std::size_t bootUsed = 0;
    const Stamp boot = parseStamp(msg, &bootUsed);
    if (boot.clock == Clock::kBoot) {
      msg.remove_prefix(bootUsed);
      // The first such line anchors the log's boot offsets; later lines take their time from their offset, which
      // the kernel stamped to the microsecond, where syslog's own time has whole seconds.
      if (anchorWall_) {
        e.stamp = boot;
      } else if (e.stamp.clock != Clock::kNone && e.stamp.clock != Clock::kBoot) {
        anchorWall_ = e.stamp;
        anchorBootUs_ = boot.bootUs;
        anchorWhere_ = file_ + ":" + std::to_string(lineNo);
      }
    }
  }
  std::optional<TimelineEvent> exited;
  if (elastic_.line(msg, lineNo, exited)) {
    if (exited) {
      if (exited->host.empty()) exited->host = e.host;
      add(std::move(*exited));
    }
    return;
  }
  const std::string lower = [&] {
    std::string l(msg);
    std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
    return l;
  }();
  e.text = eventText(msg);
  if (auto x = parseXidLine(msg)) {
    e.kind = "xid";
    e.gpu = x->pci;
    return add(std::move(e));
  }
  if (auto d = parseNcclDiagLine(raw)) return diag(*d, e);
  if (msg.starts_with("srun: error: ")) {
    // "srun: error: node12: task 3: Exited with exit code 1"; "tasks 0-7: Killed"; "Node failure on node12".
    std::string_view rest = msg.substr(13);
    const std::size_t colon = rest.find(": ");
    if (colon != std::string_view::npos && colon < 64 && !leHas(rest.substr(0, colon), " ")) {
      e.host = std::string(rest.substr(0, colon));
      e.rank = rest.substr(colon).starts_with(": task ") ? leNumberAfter(rest, ": task ") : -1;
    } else if (const std::size_t on = rest.find("Node failure on "); on != std::string_view::npos) {
      e.host = std::string(rest.substr(on + 16, rest.find_first_of(" \r", on + 16) - on - 16));
    }
    e.kind = "slurm-task-exit";
    // A task's exit follows the error that ended it (the task's own log says which); a node failure is a cause.
    e.consequence = !leHas(rest, "Node failure on ");
    return add(std::move(e));
  }
  if (msg.starts_with("slurmstepd: error: ")) {
    // "*** JOB 1234 ON node12 CANCELLED AT 2026-04-22T21:34:20 DUE TO TIME LIMIT ***": Slurm's local time.
    if (const std::size_t on = msg.find(" ON "); on != std::string_view::npos && leHas(msg, "CANCELLED")) {
      const std::size_t hostEnd = msg.find(' ', on + 4);
      e.host = std::string(msg.substr(on + 4, hostEnd - on - 4));
      if (const std::size_t at = msg.find(" AT "); at != std::string_view::npos) {
        const Stamp s = parseStamp(msg.substr(at + 4));
        if (s.clock != Clock::kNone) e.stamp = s;
      }
      e.kind = "slurm-cancelled";
      ArtefactFinding f;
      const bool limit = leHas(msg, "TIME LIMIT");
      f.id = limit ? "slurm.time_limit" : "slurm.cancelled";
      f.host = e.host;
      f.message = limit ? "Slurm cancelled the job at its time limit" : "Slurm cancelled the job or step";
      f.remedy = limit ? "a hang often runs into the time limit: look for the first failure before it; if the job was "
                         "healthy and slow, raise --time"
                       : "someone or something (scancel, a node failure, preemption) cancelled it: sacct -j JOBID -o "
                         "JobID,State,Reason,NodeList";
      f.file = file_;
      f.line = lineNo;
      f.text = e.text;
      findings_.push_back(std::move(f));
      return add(std::move(e));
    }
    if (leHas(lower, "oom_kill") || leHas(lower, "oom-kill")) {
      e.kind = "slurm-oom";
      return add(std::move(e));
    }
    return;
  }
  if (leHas(lower, "link down") || leHas(lower, "lost carrier") ||
      (leHas(lower, "port module event") && (leHas(lower, "unplugged") || leHas(lower, "error")))) {
    e.kind = "ib-link";
    if (msg.starts_with("mlx5_core ")) {
      e.nic = std::string(msg.substr(10, msg.find_first_of(" :", 10 + 12) - 10));
    } else {
      const std::size_t at = lower.find(": ");
      if (at != std::string::npos) e.nic = std::string(leWordBefore(msg, at));
    }
    return add(std::move(e));
  }
  // PyTorch's error lines by their logger's own severity: "[E304 10:42:37.883509 1234 ProcessGroupNCCL.cpp:...]".
  if (e.stamp.clock == Clock::kWallNoYear && (e.stamp.text.starts_with("[E") || e.stamp.text.starts_with("[F"))) {
    e.kind = "torch-error";
    // A watchdog's timeout follows the failure that stalled the collective (as the rules' "consequence" says).
    e.consequence = leHas(msg, "Watchdog") || leHas(lower, "timed out") || leHas(lower, "timeout");
    if (e.rank < 0) e.rank = leRankInText(msg);
    return add(std::move(e));
  }
}

void LineEvents::diag(const NcclDiagLine& d, const TimelineEvent& where) {
  if (d.tag.empty()) {
    const bool frame = d.text.starts_with("===") || d.text.find("completed in") != std::string::npos;
    if (inDiagProblem_ && !frame && !findings_.empty()) leAppend(findings_.back().text, d.text);
    if (frame) inDiagProblem_ = false;
    return;
  }
  const bool continues = inDiagProblem_ && !findings_.empty() && lastDiagArea_ == d.area && lastDiagTag_ == d.tag;
  inDiagProblem_ = d.tag != "OK";
  if (!inDiagProblem_) return;
  std::string area = d.area;
  std::transform(area.begin(), area.end(), area.begin(),
                 [](unsigned char c) { return c == ' ' ? '_' : std::tolower(c); });
  // One check reports over several lines ("mismatch across 4 ranks ... for X", then "X=3 on rank(s) 0-1", ...): the
  // lines of one area and tag in a row are one finding.
  if (continues) {
    leAppend(findings_.back().text, d.text);
    findings_.back().fail = findings_.back().fail || ncclDiagIsProblem(area, d.text);
    return;
  }
  lastDiagArea_ = d.area;
  lastDiagTag_ = d.tag;
  ArtefactFinding f;
  f.id = "diag." + area;
  f.fail = d.tag == "WARN" || ncclDiagIsProblem(area, d.text);
  f.host = d.host.empty() ? where.host : d.host;
  f.message = "NCCL's diagnostics report [" + d.tag + "] " + d.text;
  f.remedy = ncclDiagRemedy(d.area, d.text);
  f.file = file_;
  f.line = where.line;
  f.text = eventText("[" + d.tag + "] " + d.text);
  TimelineEvent e = where;
  e.kind = "diag";
  e.host = f.host;
  e.failure = f.fail;
  e.text = f.text;
  add(std::move(e));
  findings_.push_back(std::move(f));
}

void LineEvents::finish(ArtefactOut& out) {
  for (auto& e : events_) {
    if (e.stamp.clock == Clock::kBoot && anchorWall_)
      e.stamp = leShifted(*anchorWall_, e.stamp.bootUs - anchorBootUs_,
                          e.stamp.text + " (boot offset, anchored at " + anchorWhere_ + ")");
    out.events.push_back(std::move(e));
  }
  for (auto& f : findings_) out.findings.push_back(std::move(f));
  for (const auto& h : kernelHosts_) out.coverHost("kernel logs", h);
  if (kernelLog_ && kernelHosts_.empty()) out.hostlessKernelLogs.push_back(file_);
  events_.clear();
  findings_.clear();
}

namespace {

class LineEventsReader final : public ArtefactReader {
 public:
  LineEventsReader(const std::string& file, bool everyLine) : events_(file, everyLine), everyLine_(everyLine) {
    if (everyLine_) return;
    for (const auto& m : lineEventMarkers()) markers_.add(m);
    markers_.compile();
  }

  bool takesMarkedLines() const override { return !everyLine_; }
  // The marked lines in order, then one count of newlines between them.
  void markedLines(std::string_view text, const std::vector<std::size_t>& starts,
                   std::size_t newlines = SIZE_MAX) override {
    std::size_t pos = 0, line = lineNo_ + 1;
    for (const std::size_t s : starts) {
      line += countNewlines(text, pos, s);
      pos = s;
      std::size_t e = text.find('\n', s);
      if (e == std::string_view::npos) e = text.size();
      events_.line(text.substr(s, e - s), line);
    }
    // The rest of the block is counted only when the scan did not count the whole of it.
    lineNo_ = newlines == SIZE_MAX ? line + countNewlines(text, pos, text.size()) - 1 : lineNo_ + newlines;
  }

  void block(std::string_view text) override {
    if (everyLine_) {
      // A piece of a cut line (LineBlockReader) keeps the number of the line it continues.
      for (std::size_t b = 0; b < text.size();) {
        std::size_t e = text.find('\n', b);
        if (e == std::string_view::npos) e = text.size();
        events_.line(text.substr(b, e - b), midLine_ ? lineNo_ : ++lineNo_);
        midLine_ = e == text.size();
        b = e + 1;
      }
      return;
    }
    // Only the lines holding a marker (a file the rules do not scan; otherwise the scan found them: markedLines).
    hits_.clear();
    markers_.searchInto(text, hits_);
    starts_.clear();
    for (const auto& [id, at] : hits_) {
      const std::size_t nl = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
      const std::size_t s = nl == std::string_view::npos ? 0 : nl + 1;
      if (starts_.empty() || starts_.back() != s) starts_.push_back(s);  // several markers on one line
    }
    markedLines(text, starts_);
  }

  void finish(ArtefactOut& out) override { events_.finish(out); }

 private:
  LineEvents events_;
  bool everyLine_;
  bool midLine_ = false;
  MultiLiteral markers_;
  std::vector<std::pair<int, std::size_t>> hits_;
  std::vector<std::size_t> starts_;
  std::size_t lineNo_ = 0;
};

}  // namespace

std::unique_ptr<ArtefactReader> lineEventsReader(const std::string& file, bool everyLine) {
  return std::make_unique<LineEventsReader>(file, everyLine);
}

}  // namespace pf::doctor

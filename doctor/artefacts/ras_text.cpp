// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "ras_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <vector>

#include "clock.hpp"

namespace pf::doctor {
namespace {

struct RasWho {
  int rank = -1;
  long pidNumber = -1;  // "Process N ..." or "... managed by process N ..."
  std::string host, gpu, pid, text;
  std::size_t line = 0;
  long op = -1;  // "has launched up to operation N" on the same line
};

long rtNumber(std::string_view s, std::size_t at) {
  long v = 0;
  int n = 0;
  while (at < s.size() && n < 18 && s[at] >= '0' && s[at] <= '9') v = v * 10 + (s[at++] - '0'), ++n;
  return n ? v : -1;
}

std::string rtAfter(std::string_view s, std::string_view mark) {
  const std::size_t at = s.find(mark);
  if (at == std::string_view::npos) return "";
  std::string_view r = s.substr(at + mark.size());
  while (!r.empty() && (r.back() == ' ' || r.back() == '\r')) r.remove_suffix(1);
  return std::string(r);
}

// "Process 4096 on node node7 managing GPU 3" or "Rank 12 [...] -- GPU 4 managed by process 323032 on node H".
RasWho rtWho(std::string_view l, std::size_t lineNo) {
  RasWho w;
  w.line = lineNo;
  w.text = eventText(l);
  std::string_view t = l;
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  if (t.starts_with("Rank ")) w.rank = static_cast<int>(rtNumber(t, 5));
  if (t.starts_with("Process ")) w.pid = std::to_string(w.pidNumber = rtNumber(t, 8));
  if (const std::size_t at = t.find("managed by process "); at != std::string_view::npos)
    w.pidNumber = rtNumber(t, at + 19);
  if (const std::size_t at = t.find("launched up to operation "); at != std::string_view::npos)
    w.op = rtNumber(t, at + 25);
  else if (t.find("has not launched any operations") != std::string_view::npos)
    w.op = 0;
  std::string host = rtAfter(t, " on node ");
  w.host = host.substr(0, host.find(' '));
  if (const std::size_t g = t.find("GPU "); g != std::string_view::npos) {
    const std::size_t e = t.find_first_of(" \r", g + 4);
    w.gpu = std::string(t.substr(g + 4, e == std::string_view::npos ? std::string_view::npos : e - g - 4));
  }
  return w;
}

class RasTextParser {
 public:
  RasTextParser(const std::string& file, ArtefactOut& out) : file_(file), out_(out) {}

  void line(std::string_view l, std::size_t n) {
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (monitorLine(l, n)) return;
    if (l.empty()) return close();
    if (l.front() != ' ') {
      close();
      block_ = std::string(l);
      blockLine_ = n;
      return;
    }
    if (block_.empty()) return;
    const std::size_t text = l.find_first_not_of(' ');
    if (text == std::string_view::npos) return;  // a line of spaces inside an entry
    std::string_view t = l.substr(text);
    if (t.starts_with("Process ") || t.starts_with("Rank ")) {
      who_.push_back(rtWho(t, n));
      who_.back().op = who_.back().op >= 0 ? who_.back().op : groupOp_;
    } else if (const std::size_t at = t.find(" ranks have launched up to operation "); at != std::string_view::npos) {
      groupOp_ = rtNumber(t, at + 37);
      groups_.push_back({groupOp_, rtNumber(t, 0)});
    } else if (t.find(" ranks have not launched any operations") != std::string_view::npos) {
      groupOp_ = 0;
      groups_.push_back({0, rtNumber(t, 0)});
    } else {
      detail_.push_back(std::string(t));
    }
  }

  void close() {
    if (block_.empty()) return;
    const std::string b = block_;
    const std::string firstDetail = detail_.empty() ? "" : detail_.front();
    if (b.starts_with("Group ") && b.find("Ranks") != std::string::npos) commSizes();
    // A rank RAS names with its process: that process's rank in a communicator of its group's size (what names the
    // rank of an NCCL line whose process printed no Init line; the largest communicator's wins).
    if (b.starts_with("#"))
      if (const auto size = groupSize_.find(rtNumber(b, 1)); size != groupSize_.end())
        for (const RasWho& w : who_) out_.nameProcessRank(w.host, w.pidNumber, w.rank, static_cast<int>(size->second));
    if (b == "DEAD") {
      for (const RasWho& w : who_)
        find("ras.dead_process", w, "RAS considers this process dead (unreachable via the RAS network)");
      if (who_.empty()) note("ras.dead_process", firstDetail + " (RAS lists no details: more than 10 processes)");
    } else if (b == "INCOMPLETE") {
      for (const RasWho& w : who_)
        find("ras.unresponsive_process", w, "RAS got no data from this process (unresponsive)");
      if (who_.empty() && !firstDetail.empty()) note("ras.unresponsive_process", firstDetail);
    } else if (b.starts_with("#") && b.ends_with("INCOMPLETE")) {
      for (const RasWho& w : who_)
        find("ras.missing_rank", w, "RAS got no data for this rank of communicator " + commOf(b));
    } else if (b.starts_with("#") && b.ends_with("ERROR")) {
      for (const RasWho& w : who_)
        find("ras.rank_error", w, "this rank reported an NCCL error in communicator " + commOf(b));
      if (who_.empty()) note("ras.rank_error", commOf(b) + ": " + firstDetail);
    } else if (b.starts_with("#") && b.ends_with("MISMATCH")) {
      mismatch(b, firstDetail);
    } else if (b == "TIMEOUT") {
      note("ras.timeout", firstDetail);
    }
    block_.clear();
    who_.clear();
    groups_.clear();
    detail_.clear();
    groupOp_ = -1;
  }

 private:
  static std::string commOf(const std::string& b) { return b.substr(0, b.find(' ', b.find(')'))); }

  // The Communicators table's rows: "    0         1         2         2         4         4   RUNNING  MISMATCH"
  // (group, comms in group, nodes per comm, ranks per node, ranks per comm, ranks in group, status, errors).
  void commSizes() {
    for (const std::string& row : detail_) {
      std::vector<long> cols;
      for (std::size_t i = 0; i < row.size() && cols.size() < 6;) {
        while (i < row.size() && row[i] == ' ') ++i;
        if (i >= row.size() || row[i] < '0' || row[i] > '9') break;  // the header's second line, or a range
        cols.push_back(rtNumber(row, i));
        while (i < row.size() && row[i] != ' ') ++i;
      }
      if (cols.size() == 6 && cols[4] > 0) groupSize_[cols[0]] = cols[4];
    }
  }

  // Ranks whose operation count is below the highest: they lag (have not launched what the others did).
  void mismatch(const std::string& b, const std::string& what) {
    long top = -1, low = -1;
    for (const auto& [op, n] : groups_) top = std::max(top, op), low = low < 0 ? op : std::min(low, op);
    for (const RasWho& w : who_) top = std::max(top, w.op), low = low < 0 ? w.op : std::min(low, w.op);
    std::vector<std::string> counts;
    for (const auto& [op, n] : groups_) counts.push_back(fmt::format("{} ranks at operation {}", n, op));
    bool named = false;
    for (const RasWho& w : who_) {
      if (w.op < 0 || w.op >= top) continue;
      named = true;
      find("ras.collective_lagging", w,
           fmt::format("{} ({}): this rank has launched {} operations, others up to {}", commOf(b), what, w.op, top));
    }
    if (!named) {
      // RAS lists the smaller set only; when that set is ahead, the laggers are the unlisted majority.
      std::vector<int> ahead;
      for (const RasWho& w : who_)
        if (w.rank >= 0) ahead.push_back(w.rank);
      note("ras.collective_lagging",
           fmt::format("{}: {}{}: {}{}", commOf(b), what,
                       counts.empty() ? "" : " (" + fmt::format("{}", fmt::join(counts, ", ")) + ")",
                       ahead.empty() ? "RAS names no rank" : fmt::format("ranks {} are ahead", fmt::join(ahead, ", ")),
                       ahead.empty() ? "" : "; the others lag (RAS does not list more than 10)"));
    }
  }

  void find(const std::string& id, const RasWho& w, const std::string& message, bool withEvent = true) {
    ArtefactFinding f;
    f.id = id;
    f.host = w.host;
    f.rank = w.rank;
    f.message = message + (w.gpu.empty() ? "" : " (GPU " + w.gpu + ")");
    f.remedy = remedyOf(id);
    f.file = file_;
    f.line = w.line;
    f.text = w.text;
    out_.findings.push_back(std::move(f));
    if (!withEvent) return;
    TimelineEvent e;
    e.kind = id;
    e.host = w.host;
    e.rank = w.rank;
    e.gpu = w.gpu;
    e.text = w.text;
    e.file = file_;
    e.line = w.line;
    out_.events.push_back(std::move(e));
  }

  void note(const std::string& id, const std::string& message) {
    ArtefactFinding f;
    f.id = id;
    f.message = message;
    f.remedy = remedyOf(id);
    f.file = file_;
    f.line = blockLine_;
    f.text = eventText(block_);
    out_.findings.push_back(std::move(f));
  }

  static std::string remedyOf(const std::string& id) {
    if (id == "ras.dead_process" || id == "ras.unresponsive_process" || id == "ras.missing_rank")
      return "look at that node first: its kernel log (Xid, link events, OOM killer), its rank's log and error file; "
             "a process that died takes the job's collectives with it";
    if (id == "ras.collective_lagging")
      return "the lagging ranks never launched the collective the others wait in: read their Python stacks (py-spy "
             "dump, Flight Recorder) for a divergent code path, uneven data or a slow rank";
    if (id == "ras.rank_error") return "read the rank's NCCL WARN lines (NCCL_DEBUG=WARN) around the error RAS names";
    return "rerun ncclras with a longer timeout (-t) once the job's network settles";
  }

  // MONITOR (NCCL >= 2.29): "[2026-01-15 10:42:37] PEER_DEAD: Process 12 on node n3 managing GPU 1 details".
  bool monitorLine(std::string_view l, std::size_t n) {
    std::size_t used = 0;
    if (l.empty() || l.front() != '[') return false;
    const Stamp s = parseStamp(l, &used);
    if (s.clock == Clock::kNone || used >= l.size()) return false;
    std::string_view rest = l.substr(used);
    const std::size_t colon = rest.find(": ");
    if (!rest.starts_with("PEER_") || colon == std::string_view::npos) return false;
    const std::string event(rest.substr(0, colon));
    RasWho w = rtWho(rest.substr(colon + 2), n);
    TimelineEvent e;
    e.stamp = s;
    e.kind = "ras-" + event;
    e.failure = event == "PEER_DEAD" || event == "PEER_UNRESPONSIVE" || event == "PEER_TIMEOUT_DEAD" ||
                event == "PEER_KEEPALIVE_TIMEOUT" || event == "PEER_SEND_STUCK";
    e.host = w.host;
    e.gpu = w.gpu;
    e.text = eventText(l);
    e.file = file_;
    e.line = n;
    if (event == "PEER_DEAD" || event == "PEER_TIMEOUT_DEAD")
      find("ras.dead_process", w, "RAS MONITOR reported " + event, false);
    out_.events.push_back(std::move(e));
    return true;
  }

  const std::string& file_;
  ArtefactOut& out_;
  std::string block_;
  std::size_t blockLine_ = 0;
  std::vector<RasWho> who_;
  std::vector<std::pair<long, long>> groups_;  // (operation, ranks)
  std::vector<std::string> detail_;
  long groupOp_ = -1;
  std::map<long, long> groupSize_;  // ranks per communicator, by group number (the Communicators table)
};

}  // namespace

void readRasText(const std::string& text, const std::string& file, ArtefactOut& out) {
  RasTextParser p(file, out);
  std::size_t n = 0;
  for (std::size_t b = 0; b < text.size();) {
    std::size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    p.line(std::string_view(text).substr(b, std::min<std::size_t>(e - b, 4096)), ++n);
    b = e + 1;
  }
  p.close();
}

}  // namespace pf::doctor

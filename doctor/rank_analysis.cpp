// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "rank_analysis.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "info_extractor.hpp"
#include "log_time.hpp"
#include "pf/json_field.hpp"

namespace pf::doctor {
namespace {

// The integer after `key` (e.g. "SeqNum=" -> 3); -1 when absent.
long numberAfter(std::string_view s, std::string_view key) {
  std::size_t p = s.find(key);
  if (p == std::string_view::npos) return -1;
  p += key.size();
  long v = 0;
  std::size_t n = 0;
  while (p + n < s.size() && s[p + n] >= '0' && s[p + n] <= '9' && n < 15) v = v * 10 + (s[p + n++] - '0');
  return n ? v : -1;
}

}  // namespace

int rankOfLine(const NormLine& l) { return rankOfLine(l.view()); }

int rankOfLine(const NormView& l) {
  if (l.launcherRank >= 0) return l.launcherRank;
  // PyTorch: "[Rank 3]", "[PG 0 (default_pg) Rank 3]", "[PG ID 0 PG GUID 0(default_pg) Rank 3]".
  std::size_t p = l.text.find("[Rank ");
  if (p == std::string_view::npos) p = l.text.find(" Rank ");
  if (p != std::string_view::npos) {
    long r = numberAfter(l.text.substr(p), "Rank ");
    if (r >= 0 && r < 10000000) return static_cast<int>(r);
  }
  return -1;
}

bool parseWatchdog(const NormLine& l, WatchdogEntry& out) {
  // PyTorch >= 2.2 also prints "Timeout at NCCL work: 12, last enqueued NCCL work: 12, last completed NCCL
  // work: 11"; the enqueued number plays the role of SeqNum.
  if (l.text.find("Timeout at NCCL work") != std::string::npos) {
    out.rank = rankOfLine(l);
    out.seq = numberAfter(l.text, "last enqueued NCCL work: ");
    if (out.seq < 0) out.seq = numberAfter(l.text, "Timeout at NCCL work: ");
    out.op = "last completed " + std::to_string(numberAfter(l.text, "last completed NCCL work: "));
    return true;
  }
  if (l.text.find("Watchdog caught collective operation timeout") == std::string::npos &&
      l.text.find("Caught collective operation timeout") == std::string::npos)
    return false;
  out.rank = rankOfLine(l);
  out.seq = numberAfter(l.text, "SeqNum=");
  out.timeoutMs = numberAfter(l.text, "Timeout(ms)=");
  out.ranForMs = numberAfter(l.text, "ran for ");
  std::size_t op = l.text.find("OpType=");
  if (op != std::string::npos) out.op = l.text.substr(op + 7, l.text.find_first_of(",) ", op + 7) - op - 7);
  return true;
}

namespace {

// A failing line's time: its stamp, else the stamped line after it in its input (it was printed no later), else
// the one before it.
std::optional<LogTime> lineTime(const Evidence& e) {
  for (const std::string* s : {&e.timestamp, &e.notLaterThan, &e.notEarlierThan})
    if (!s->empty())
      if (auto t = parseLogTime(*s)) return t;
  return std::nullopt;
}

}  // namespace

bool printedEarlier(const Evidence& a, const Evidence& b) {
  const auto ta = lineTime(a), tb = lineTime(b);
  if (ta && tb) {
    if (const int c = compareLogTime(*ta, *tb); c != 0) return c < 0;
  } else if (ta || tb) {
    return ta.has_value();
  }
  return a.file == b.file && a.line < b.line;
}

bool knownPrintedEarlier(const Evidence& a, const Evidence& b) {
  const auto ta = lineTime(a), tb = lineTime(b);
  if (ta && tb)
    if (const int c = compareLogTime(*ta, *tb); c != 0) return c < 0;
  return a.file == b.file && a.line < b.line;
}

std::string rankRanges(const std::vector<int>& ranks, std::size_t maxRanges) {
  std::string out;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (shown == maxRanges) {
      out += fmt::format(", ... ({} ranks in all)", ranks.size());
      break;
    }
    out += fmt::format("{}{}", shown ? ", " : "", ranks[i]);
    if (j > i) out += fmt::format("{}{}", j == i + 1 ? ", " : "-", ranks[j]);
    ++shown;
    i = j + 1;
  }
  return out;
}

RankReport analyzeRanks(const std::vector<Evidence>& failures, std::vector<WatchdogEntry> watchdog,
                        const InfoExtractor& info, int maxRankSeen, const std::set<int>& ranksSeen) {
  RankReport r;
  // First failure: the earliest printed (failures come in input order, which breaks ties).
  for (const auto& e : failures) {
    if (!r.haveFirst || printedEarlier(e, r.firstFailure)) r.firstFailure = e;
    r.haveFirst = true;
  }
  // World size: the largest nranks of any communicator, else the largest rank named + 1.
  for (const auto& [id, c] : info.comms()) r.worldSize = std::max(r.worldSize, c.nranks);
  r.worldSizeFromInit = r.worldSize > 0;
  if (r.worldSize < 0 && maxRankSeen >= 0) r.worldSize = maxRankSeen + 1;
  // Ranks whose logs are here: any line of theirs, an Init line of theirs, a watchdog report of theirs. A flag
  // per rank of the world, for the only ranks asked about; `anyPresent` for any rank at all.
  const bool worldListable = r.worldSize > 0 && r.worldSize <= 100000;
  std::vector<char> present(worldListable ? static_cast<std::size_t>(r.worldSize) : 0);
  bool anyPresent = false;
  const auto markPresent = [&](int k) {
    anyPresent = true;
    if (k >= 0 && static_cast<std::size_t>(k) < present.size()) present[static_cast<std::size_t>(k)] = 1;
  };
  const auto isPresent = [&](int k) { return present[static_cast<std::size_t>(k)] != 0; };
  for (int k : ranksSeen) markPresent(k);
  for (const auto& e : failures)  // a failing line of a rank named only by RAS is that rank's log
    if (e.rank >= 0) markPresent(e.rank);
  for (const auto& [id, c] : info.comms()) {
    anyPresent = anyPresent || c.ranksLogged > 0;
    for (int k = 0, n = std::min(c.rankSlots(), static_cast<int>(present.size())); k < n; ++k)
      if (c.bitsOf(k)) present[static_cast<std::size_t>(k)] = 1;
  }
  // Keep one watchdog entry per rank (the first), then find who the others were waiting on.
  std::set<int> seenRanks;
  std::vector<WatchdogEntry> uniq;
  for (auto& w : watchdog)
    if (w.rank < 0 || seenRanks.insert(w.rank).second) uniq.push_back(std::move(w));
  r.watchdog = std::move(uniq);
  for (int k : seenRanks) markPresent(k);
  if (worldListable && anyPresent)
    for (int k = 0; k < r.worldSize; ++k)
      if (!isPresent(k)) r.ranksWithoutLogs.push_back(k);
  if (!r.watchdog.empty()) {
    long minSeq = -1, maxSeq = -1;
    for (const auto& w : r.watchdog) {
      if (w.seq < 0) continue;
      minSeq = minSeq < 0 ? w.seq : std::min(minSeq, w.seq);
      maxSeq = std::max(maxSeq, w.seq);
    }
    std::set<int> waited;
    if (minSeq >= 0 && maxSeq > minSeq) {
      for (const auto& w : r.watchdog)
        if (w.seq == minSeq && w.rank >= 0) waited.insert(w.rank);
      r.notes.push_back(
          fmt::format("ranks timed out at different sequence numbers ({}..{}): the ranks at {} are "
                      "behind the others",
                      minSeq, maxSeq, minSeq));
    }
    // Ranks whose logs are given and hold no timeout: the others waited for them. Only meaningful when some
    // ranks did report; if none named a rank we cannot tell who is missing.
    if (worldListable && !seenRanks.empty()) {
      std::vector<int> silent;
      for (int k = 0; k < r.worldSize; ++k)
        if (isPresent(k) && !seenRanks.count(k)) silent.push_back(k);
      if (!silent.empty()) {
        waited.insert(silent.begin(), silent.end());
        // A silent rank with an error of its own failed (a CUDA error, a lost link): say where, rather than guess
        // that it was stuck.
        std::map<int, const Evidence*> failedAt;
        for (const auto& e : failures)
          if (e.rank >= 0)
            if (auto [at, added] = failedAt.emplace(e.rank, &e); !added && printedEarlier(e, *at->second))
              at->second = &e;
        std::vector<int> stuck;
        std::vector<std::string> failed;
        for (int k : silent) {
          if (const auto at = failedAt.find(k); at == failedAt.end())
            stuck.push_back(k);
          else if (failed.size() < 4)
            failed.push_back(fmt::format("rank {} failed first ({})", k, at->second->where()));
        }
        std::string why;
        if (!failed.empty()) why = fmt::format(": {}", fmt::join(failed, ", "));
        if (!stuck.empty()) {
          const std::string who = failed.empty()      ? "they were"
                                  : stuck.size() == 1 ? fmt::format("rank {} was", stuck[0])
                                                      : fmt::format("ranks {} were", rankRanges(stuck));
          why += fmt::format("{}{} probably stuck before the collective", why.empty() ? ": " : "; ", who);
        }
        r.notes.push_back(
            fmt::format("{} of the {} ranks whose logs are given hit the watchdog; the others ({}) never "
                        "reported a timeout{}",
                        seenRanks.size(), seenRanks.size() + silent.size(), rankRanges(silent), why));
      }
    }
    r.waitedOn.assign(waited.begin(), waited.end());
  }
  if (!r.ranksWithoutLogs.empty())
    r.notes.push_back(
        fmt::format("logs of {} rank{} not given ({}{}): what they did is unknown; add their logs to "
                    "tell whether they reached the collective",
                    r.ranksWithoutLogs.size(), r.ranksWithoutLogs.size() == 1 ? "" : "s",
                    rankRanges(r.ranksWithoutLogs), r.worldSizeFromInit ? fmt::format(" of {}", r.worldSize) : ""));
  // Communicator init progress, of every communicator kept: a flag per rank, so that a rank named by several
  // communicators (a job's restarts, its groups) is listed once and the lists stay bounded by the largest.
  std::vector<std::uint8_t> initState;  // 1: never initialised in some communicator, 2: init incomplete in some
  for (const auto& [id, c] : info.comms()) {
    // A log from only some nodes would make every other rank look uninitialised: judge only when at least half
    // of the communicator's ranks left Init lines in the inputs.
    if (c.nranks > 100000 || std::size_t{c.ranksLogged} * 2 < static_cast<std::size_t>(c.nranks)) continue;
    if (initState.size() < static_cast<std::size_t>(c.nranks)) initState.resize(static_cast<std::size_t>(c.nranks));
    for (int k = 0; k < c.nranks; ++k) {
      const unsigned bits = c.bitsOf(k);
      if (!bits)
        initState[static_cast<std::size_t>(k)] |= 1;
      else if (bits == 1 && c.ranksCompleted > 0)
        initState[static_cast<std::size_t>(k)] |= 2;
    }
  }
  for (std::size_t k = 0; k < initState.size(); ++k) {
    if (initState[k] & 1) r.neverInitialised.push_back(static_cast<int>(k));
    if (initState[k] & 2) r.initIncomplete.push_back(static_cast<int>(k));
  }
  if (!r.neverInitialised.empty())
    r.notes.push_back(
        fmt::format("{} rank(s) never logged NCCL Init START (e.g. rank {}): they did not reach "
                    "ncclCommInitRank, or their logs are missing",
                    r.neverInitialised.size(), r.neverInitialised.front()));
  return r;
}

Json RankReport::toJson() const {
  Json j = Json::object();
  j["first_failure"] = haveFirst ? firstFailure.toJson() : Json();
  Json wd = Json::array();
  for (const auto& w : watchdog) {
    wd.push_back({{"rank", w.rank < 0 ? Json() : Json(w.rank)},
                  {"seq", w.seq < 0 ? Json() : Json(w.seq)},
                  {"op", jsonOrNull(w.op)},
                  {"timeout_ms", w.timeoutMs < 0 ? Json() : Json(w.timeoutMs)},
                  {"ran_for_ms", w.ranForMs < 0 ? Json() : Json(w.ranForMs)},
                  {"evidence", w.evidence.toJson()}});
  }
  j["watchdog"] = wd;
  j["waited_on_ranks"] = waitedOn;
  j["world_size"] = worldSize < 0 ? Json() : Json(worldSize);
  j["world_size_from_init"] = worldSizeFromInit;
  j["ranks_without_logs"] = ranksWithoutLogs;
  j["never_initialised_ranks"] = neverInitialised;
  j["init_incomplete_ranks"] = initIncomplete;
  j["notes"] = notes;
  return j;
}

}  // namespace pf::doctor

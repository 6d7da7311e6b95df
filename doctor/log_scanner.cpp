// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "log_scanner.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "line_markers.hpp"
#include "line_normalizer.hpp"
#include "line_search.hpp"
#include "log_time.hpp"

namespace pf::doctor {
namespace {

// Fills every field of `ev` (which may hold an earlier line's evidence: its buffers are reused).
void describeInto(Evidence& ev, const std::string& file, std::size_t lineNo, const NormView& norm) {
  ev.file.assign(file);
  ev.line = lineNo;
  // utf8Prefix(text, 400) without a copy of the whole text first.
  std::size_t cut = std::min<std::size_t>(norm.text.size(), 400);
  if (cut < norm.text.size())
    while (cut > 0 && (static_cast<unsigned char>(norm.text[cut]) & 0xC0) == 0x80) --cut;
  ev.text.assign(norm.text.substr(0, cut));
  ev.host.assign(norm.host);
  ev.rank = rankOfLine(norm);
  ev.pid = norm.pid;
  ev.timestamp.assign(norm.timestamp);
  ev.notEarlierThan.clear();
  ev.notLaterThan.clear();
}

// What LineEvidence needs to build a tap line's Evidence when the extractor keeps it.
struct TapContext {
  const std::string* file;
  std::size_t lineNo;
  const NormView* norm;
};

void makeTapEvidence(const void* ctx, Evidence& out) {
  const auto* c = static_cast<const TapContext*>(ctx);
  describeInto(out, *c->file, c->lineNo, *c->norm);
}

// Where the line that starts at `from` ends (its newline, or `to`).
std::size_t lineEnd(std::string_view text, std::size_t from, std::size_t to) {
  if (from < to && text[from] == '\n') return from;  // the usual case after a line: no library call
  const void* nl = std::memchr(text.data() + from, '\n', to - from);
  return nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) : to;
}

}  // namespace

LogScanner::LogScanner(const Catalog& catalog)
    : words(catalog.reports.get()),
      catalog_(catalog),
      matcher_(catalog, InfoExtractor::taps(), lineEventMarkers()),
      hits_(matcher_.patterns().size()) {
  patternRules_.resize(hits_.size());
  for (std::size_t r = 0; r < catalog.rules.size(); ++r)
    for (const auto& g : catalog.rules[r].groups)
      for (const auto& p : g)
        if (int i = matcher_.indexOf(&p); i >= 0)
          patternRules_[static_cast<std::size_t>(i)].push_back(static_cast<int>(r));
  ruleLines_.assign(catalog.rules.size(), 0);
  ruleStamp_.assign(catalog.rules.size(), SIZE_MAX);
}

void LogScanner::beginInput(const std::string& name) {
  input_ = input_ == SIZE_MAX ? 0 : input_ + 1;
  inputBytes_ = inputLines_ = 0;
  endsWithNewline_ = true;
  lastStamp_.clear();
  awaiting_.clear();  // a stamp of another input bounds nothing
  file_ = validUtf8(name);
}

void LogScanner::endInput() {
  info.endInput();
  if (inputBytes_ == 0) emptyInputs.push_back(file_);
  bytes += inputBytes_;
  lines += inputLines_ + (inputBytes_ > 0 && !endsWithNewline_);
}

void LogScanner::block(std::string_view text) {
  prepare(text, own_);
  consume(text, own_);
}

void LogScanner::prepare(std::string_view text, PreparedBlock& prep) const {
  prep.scan.clear();
  prep.lines.clear();
  prep.pats.clear();
  matcher_.scan(text, prep.scan);
  // One pass over the block instead of one per line: nearly every block of a real log is plain ASCII.
  prep.plain = plainAscii(text);
  // The lines of interest in text order, each line's rule hits and tap together, with what can be read of each
  // line without the scanner's state: its number in the block, its prefix, whether it may be a watchdog line.
  const ScanResult& scan = prep.scan;
  const auto& events = scan.events;
  // Line numbers from the scan's newline offsets (a cursor moving forward with the lines), else by counting.
  const std::vector<std::uint32_t>& nl = scan.newlines;
  const bool indexed = text.size() < UINT32_MAX;
  std::size_t counted = 0, newlines = 0;
  for (std::size_t i = 0; i < events.size();) {
    PreparedBlock::Line& l = prep.lines.emplace_back();
    l.begin = events[i].first;
    if (indexed) {
      while (newlines < nl.size() && nl[newlines] < l.begin) ++newlines;
    } else {
      newlines += countNewlines(text, counted, l.begin);
      counted = l.begin;
    }
    l.newlinesBefore = newlines;
    l.patsBegin = static_cast<std::uint32_t>(prep.pats.size());
    for (; i < events.size() && events[i].first == l.begin; ++i) {
      if (events[i].second < 0) {
        l.tap = true;
        l.tapMask = scan.tapMasks[static_cast<std::size_t>(-events[i].second - 1)];
      } else
        prep.pats.push_back(events[i].second);
    }
    l.patsEnd = static_cast<std::uint32_t>(prep.pats.size());
    // The matcher found the line's end already.
    l.end = scan.eventLineEnds[i - 1];
    const std::string_view raw = text.substr(l.begin, l.end - l.begin);
    // Both watchdog phrases hold "imeout": one search rules both out on the lines (nearly all) that have neither.
    l.maybeWatchdog = l.patsEnd > l.patsBegin && lineHolds(raw, "imeout") &&
                      (lineHolds(raw, "collective operation timeout") || lineHolds(raw, "Timeout at NCCL work"));
    l.viewed = !l.maybeWatchdog && normalizeView(raw, l.view, prep.plain);
    if (l.tap && l.viewed) l.info = InfoExtractor::classify(l.view, l.tapMask);
  }
  prep.newlines = indexed ? nl.size() : newlines + countNewlines(text, counted, text.size());
}

void LogScanner::consume(std::string_view text, const PreparedBlock& prep) {
  if (text.empty()) return;
  for (std::size_t b = 0; b < text.size() && words.wantsLines();) {
    const std::size_t e = lineEnd(text, b, text.size());
    words.headLine(text.substr(b, e - b));
    b = e + 1;
  }
  const std::size_t firstLine = inputLines_ + 1;
  std::size_t next = 0;  // where the line after the last one handled starts
  // The extractor's process look-up of a line is a cache miss on a log of many processes: asked for a few lines
  // ahead, it is (mostly) in the cache when the line comes.
  constexpr std::size_t kAhead = 6;
  const std::size_t nLines = prep.lines.size();
  for (std::size_t j = 0; j < nLines; ++j) {
    const PreparedBlock::Line& l = prep.lines[j];
    if (j + kAhead < nLines) {
      const PreparedBlock::Line& ahead = prep.lines[j + kAhead];
      if (ahead.info.kind != InfoLine::kUnread) info.prefetch(ahead.view, ahead.info);
    }
    if (info.wantsNextLine()) followLines(text, next, l.begin);
    line(text.substr(l.begin, l.end - l.begin), l, firstLine + l.newlinesBefore, inputBytes_ + l.begin,
         std::span<const int>(prep.pats).subspan(l.patsBegin, l.patsEnd - l.patsBegin));
    next = std::min(lineEnd(text, l.end, text.size()) + 1, text.size());
  }
  if (info.wantsNextLine()) followLines(text, next, text.size());
  inputLines_ += prep.newlines;
  inputBytes_ += text.size();
  endsWithNewline_ = text.back() == '\n';
}

// Lines in [from, to) that hold nothing the matcher looks for, passed to the extractor while it asks for them
// (a sample's matrix rows after their title). A request left open at the end of a block carries into the next.
void LogScanner::followLines(std::string_view text, std::size_t from, std::size_t to) {
  while (from < to && info.wantsNextLine()) {
    const std::size_t end = lineEnd(text, from, to);
    info.nextLine(text.substr(from, end - from));
    from = end + 1;
  }
}

void LogScanner::line(std::string_view raw, const PreparedBlock::Line& pl, std::size_t lineNo, std::size_t offset,
                      std::span<const int> pats) {
  const bool tap = pl.tap;
  std::uint32_t tapMask = pl.tapMask;
  NormView view = pl.view;
  // Most lines are read through views (no copies). A full, owned normalisation is needed for lines that must
  // be rewritten (escapes, non-ASCII bytes) and for possible watchdog lines, whose parser takes a NormLine.
  const bool full = !pl.viewed;
  if (full) {
    // Kept in the scanner, not in a std::optional here: constructing an empty optional NormLine zeroed its
    // 152 bytes with `rep stos` on every line, 2% of the doctor's time on a 4,096-rank log.
    owned_ = normalizeLine(raw);
    view = owned_.view();
    // Stripping escapes can join a literal the raw line did not hold: the tap mask no longer applies.
    if (raw.find('\x1b') != std::string_view::npos) tapMask = ~std::uint32_t{0};
  }
  TapContext ctx{&file_, lineNo, &view};
  LineEvidence le(file_, &makeTapEvidence, &ctx);
  if (tap) {
    info.apply(view, full ? InfoExtractor::classify(view, tapMask) : pl.info, le);
    if (le.used() && !pats.empty()) keptTapHits_[{file_, lineNo}].assign(pats.begin(), pats.end());
    if (le.pastFact() && !pats.empty()) {
      const std::string_view fact = le.pastFact();
      auto it = std::find_if(pastFactHits_.begin(), pastFactHits_.end(),
                             [&](const PastFactHits& h) { return h.fact == fact && std::ranges::equal(h.pats, pats); });
      if (it == pastFactHits_.end())
        it = pastFactHits_.insert(pastFactHits_.end(), {fact, std::vector<int>(pats.begin(), pats.end()), 0});
      ++it->count;
    }
    if (view.launcherRank >= 0 && view.launcherRank != lastTapRank_) {
      lastTapRank_ = view.launcherRank;
      noteRank(view.launcherRank);
    }
  }
  if (!awaiting_.empty() && !view.timestamp.empty()) stampSeen(view.timestamp);
  if (pats.empty()) return;
  const LineKey key{input_, offset};
  const int rank = rankOfLine(view);
  maxRank = std::max(maxRank, rank);
  if (rank >= 0) noteRank(rank);
  if (full) {  // a watchdog line is never viewed (maybeWatchdog)
    if (WatchdogEntry w; parseWatchdog(owned_, w)) {
      w.evidence = le.get();
      // One entry per rank: its first line, unless that one did not say which collective (a message wrapped
      // over two lines, a repeat without the WorkNCCL details) and a later one does.
      if (w.rank < 0) {
        watchNoRank_.emplace_back(key, std::move(w));
      } else if (auto it = watchByRank_.find(w.rank); it == watchByRank_.end()) {
        watchByRank_[w.rank] = {key, std::move(w)};
      } else if (it->second.second.seq < 0 && w.seq >= 0) {
        it->second = {key, std::move(w)};
      }
    }
  }
  const std::uint32_t hostId = view.host.empty() ? TextIds::kNone : hostIds_.idOf(view.host);
  const bool failing = !equals(view.level, "INFO");
  if (!view.timestamp.empty()) lastStamp_.assign(view.timestamp);
  ++lineSerial_;
  for (int p : pats) {
    PatternHits& h = hits_[static_cast<std::size_t>(p)];
    ++h.count;
    const auto& rules = patternRules_[static_cast<std::size_t>(p)];
    // A pattern no rule's groups hold (an `unless` one) is only asked whether it matched: the count does.
    if (rules.empty()) continue;
    if (h.first.size() < kMaxEvidence) h.first.emplace_back(key, le.get());
    if (hostId != TextIds::kNone) {
      if (h.hostSeen.size() <= hostId) h.hostSeen.resize(std::size_t{hostId} + 1);
      if (!h.hostSeen[hostId]) {
        h.hostSeen[hostId] = true;
        h.hosts.emplace(view.host);
      }
    } else if (!view.host.empty() && h.hosts.find(view.host) == h.hosts.end()) {
      h.hosts.emplace(view.host);
    }
    if (rank >= 0 && rank < (1 << 20)) {
      const auto r = static_cast<std::size_t>(rank);
      if (h.rankSeen.size() <= r) h.rankSeen.resize(r + 1);
      if (!h.rankSeen[r]) {
        h.rankSeen[r] = true;
        h.ranks.insert(rank);
      }
    } else if (rank >= 0) {
      h.ranks.insert(rank);
    }
    if (failing && view.level.empty()) h.failOutsideNccl = true;
    if (failing && !h.haveFail) {
      h.fail = {key, le.get()};
      h.haveFail = true;
      if (view.timestamp.empty()) h.fail.second.notEarlierThan = lastStamp_;
    }
    if (failing && !view.timestamp.empty()) {
      // By the time the stamps name, not their text: formats differ between the lines of one job.
      const auto order =
          h.haveStampedFail ? compareStamps(view.timestamp, h.stampedFail.second.timestamp) : std::optional<int>(-1);
      if (order ? *order < 0 : view.timestamp < h.stampedFail.second.timestamp) {
        h.stampedFail = {key, le.get()};
        h.haveStampedFail = true;
      }
    } else if (failing &&
               std::none_of(awaiting_.begin(), awaiting_.end(), [&](const auto& a) { return a.first == p; })) {
      Evidence e = le.get();
      e.notEarlierThan = lastStamp_;
      awaiting_.push_back({p, {key, std::move(e)}});
    }
    for (int r : rules) {
      // Several patterns of one rule on the same line count it once.
      if (ruleStamp_[static_cast<std::size_t>(r)] == lineSerial_) continue;
      ruleStamp_[static_cast<std::size_t>(r)] = lineSerial_;
      ++ruleLines_[static_cast<std::size_t>(r)];
    }
  }
}

void LogScanner::noteRank(int rank) {
  if (rank >= 10000000) return;  // not a rank of a real job: no bitmap for it
  const auto r = static_cast<std::size_t>(rank);
  if (r >= rankSeen_.size()) rankSeen_.resize(std::max(r + 1, 2 * rankSeen_.size()));
  rankSeen_[r] = true;
}

std::set<int> LogScanner::ranksSeen() const {
  std::set<int> out;
  for (std::size_t r = 0; r < rankSeen_.size(); ++r)
    if (rankSeen_[r]) out.insert(out.end(), static_cast<int>(r));
  return out;
}

void LogScanner::stampSeen(std::string_view stamp) {
  for (auto& [p, kv] : awaiting_) {
    PatternHits& h = hits_[static_cast<std::size_t>(p)];
    kv.second.notLaterThan = std::string(stamp);
    if (h.haveFail && h.fail.first == kv.first) h.fail.second = kv.second;  // the same line: give it its bounds
    const auto order = h.haveBoundedFail ? compareStamps(stamp, h.boundedFail.second.notLaterThan) : std::nullopt;
    if (!h.haveBoundedFail || (order && *order < 0)) {
      h.boundedFail = std::move(kv);
      h.haveBoundedFail = true;
    }
  }
  awaiting_.clear();
}

bool LogScanner::keptLineMatchesRule(const std::string& file, std::size_t line, std::size_t rule) const {
  auto it = keptTapHits_.find({file, line});
  if (it == keptTapHits_.end()) return false;
  for (int p : it->second) {
    const auto& rules = patternRules_[static_cast<std::size_t>(p)];
    if (std::find(rules.begin(), rules.end(), static_cast<int>(rule)) != rules.end()) return true;
  }
  return false;
}

std::size_t LogScanner::pastFactLinesMatchingRule(std::string_view fact, std::size_t rule) const {
  std::size_t n = 0;
  for (const auto& h : pastFactHits_) {
    if (h.fact != fact) continue;
    for (int p : h.pats) {
      const auto& rules = patternRules_[static_cast<std::size_t>(p)];
      if (std::find(rules.begin(), rules.end(), static_cast<int>(rule)) != rules.end()) {
        n += h.count;
        break;
      }
    }
  }
  return n;
}

std::vector<WatchdogEntry> LogScanner::watchdog() const {
  std::vector<std::pair<WatchKey, WatchdogEntry>> all(watchNoRank_);
  for (const auto& [rank, kw] : watchByRank_) all.push_back(kw);
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<WatchdogEntry> out;
  for (auto& [k, w] : all) out.push_back(std::move(w));
  return out;
}

}  // namespace pf::doctor

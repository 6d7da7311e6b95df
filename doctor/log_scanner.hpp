// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The doctor's single streaming pass: blocks of whole lines go through the Matcher; the lines it selects are
// normalised once, INFO "tap" lines feed the InfoExtractor (through views, without copies, for ASCII lines),
// and for every rule pattern only what the report uses is kept: the count, the first lines (evidence), the
// first failing line and the earliest-stamped one (the per-rank analysis), hosts and ranks. Memory is bounded
// by the rules, ranks and processes, never by the log's size; line numbers count across blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "evidence.hpp"
#include "info_extractor.hpp"
#include "line_normalizer.hpp"
#include "matcher.hpp"
#include "rank_analysis.hpp"
#include "report_memory.hpp"
#include "rule_catalog.hpp"
#include "text_ids.hpp"

namespace pf::doctor {

/// Where a line is: (input index, byte offset of its start in the input); orders lines in input order.
using LineKey = std::pair<std::size_t, std::size_t>;

/// What the report needs from one literal pattern's matching lines.
struct PatternHits {
  std::size_t count = 0;
  std::vector<std::pair<LineKey, Evidence>> first;  ///< the first kMaxEvidence lines, in input order
  bool haveFail = false, haveStampedFail = false;
  bool failOutsideNccl = false;       ///< a matching line that is not an NCCL INFO or WARN line (the program's own)
  std::pair<LineKey, Evidence> fail;  ///< the first line that is not an NCCL INFO line
  std::pair<LineKey, Evidence> stampedFail;  ///< the first such line with the earliest timestamp (log_time.hpp)
  /// The failing line without a timestamp whose input printed a stamped line soonest after it (its notLaterThan):
  /// of the unstamped ones, the one known to be the earliest.
  bool haveBoundedFail = false;
  std::pair<LineKey, Evidence> boundedFail;
  std::set<std::string, std::less<>> hosts;
  std::set<int> ranks;
  /// Which hosts (LogScanner's ids) and ranks are in the sets already: a bit test per matching line instead of a
  /// tree search, where hundreds of hosts' INFO lines match a rule.
  std::vector<bool> hostSeen, rankSeen;
};

/// What LogScanner::prepare() finds in a block from its text alone: the lines of interest (one multi-literal
/// pass) and whether the block is plain ASCII. It needs none of the scanner's state, so a thread of its own can
/// prepare the next block while the scanner consumes this one (block_pipeline.hpp).
struct PreparedBlock {
  ScanResult scan;
  bool plain = false;
  /// One line of interest: its events together, where it is, and its prefix read (normalizeView).
  struct Line {
    // User-provided, so that emplace_back() runs the member initialisers only: the implicit one let the compiler
    // zero the whole line first (`rep stos`, a third of prepare()'s time).
    Line() {}
    std::size_t begin = 0, end = 0;  ///< its bytes in the block: end is before the newline (and a '\r')
    std::size_t newlinesBefore = 0;  ///< newlines in the block before it: its number less the block's first
    std::uint32_t tapMask = 0;
    bool tap = false;
    bool maybeWatchdog = false;  ///< holds a watchdog phrase: the scanner parses it from an owned normalisation
    bool viewed = false;         ///< `view` holds the line's normalisation (plain ASCII, not maybeWatchdog)
    std::uint32_t patsBegin = 0, patsEnd = 0;  ///< its rule patterns: pats[patsBegin, patsEnd)
    NormView view;
    InfoLine info;  ///< a viewed tap line's InfoExtractor::classify (kUnread for the others)
  };
  std::vector<Line> lines;
  std::vector<int> pats;
  std::size_t newlines = 0;  ///< in the whole block
};

class LogScanner {
 public:
  /// @param catalog must outlive the scanner.
  explicit LogScanner(const Catalog& catalog);

  void beginInput(const std::string& name);
  /// Whole lines of the current input (the last may lack its newline at the end of the input), in order:
  /// prepare() and consume() on this thread.
  void block(std::string_view lines);
  /// block()'s two halves. prepare() reads only `lines` and the catalog, so it may run on another thread, on a
  /// later block, while consume() does the per-line work, which depends on every line before, in input order.
  /// `prep` must be prepare()'s result for the same text.
  void prepare(std::string_view lines, PreparedBlock& prep) const;
  void consume(std::string_view lines, const PreparedBlock& prep);
  void endInput();

  const Matcher& matcher() const { return matcher_; }
  /// Starts of the lines of the block last given to block() that hold one of lineEventMarkers() (line_markers.hpp),
  /// ascending.
  const std::vector<std::size_t>& markerLines() const { return own_.scan.markerLines; }
  const std::vector<PatternHits>& patterns() const { return hits_; }
  /// Per rule (catalog order): distinct lines that matched any pattern of its groups.
  const std::vector<std::size_t>& ruleLines() const { return ruleLines_; }
  /// Whether the line (file, line number) matched a pattern of rule `rule`'s groups; answered for the lines
  /// whose evidence the INFO extractor kept (the only ones a fact can point at).
  bool keptLineMatchesRule(const std::string& file, std::size_t line, std::size_t rule) const;
  /// Lines a fact counted past its cap (InfoExtractor::factLinesNotKept) that also matched a pattern of rule
  /// `rule`: the rule counts them once.
  std::size_t pastFactLinesMatchingRule(std::string_view fact, std::size_t rule) const;
  /// Watchdog entries, one per rank (plus every rank-less one), in the order the in-memory pipeline had.
  std::vector<WatchdogEntry> watchdog() const;

  InfoExtractor info;
  /// The known words of the job's first lines (report_memory.hpp); the evaluation adds the lines rules kept.
  WordSample words;
  int maxRank = -1;
  /// Ranks whose own lines are in the inputs (launcher tags, PyTorch's "[Rank N]" on matched lines).
  std::set<int> ranksSeen() const;
  std::size_t bytes = 0, lines = 0;
  /// Inputs that held no bytes at all (a rank that printed nothing, a file truncated by the job's end), by name.
  std::vector<std::string> emptyInputs;

 private:
  void followLines(std::string_view text, std::size_t from, std::size_t to);
  void line(std::string_view raw, const PreparedBlock::Line& pl, std::size_t lineNo, std::size_t offset,
            std::span<const int> pats);

  const Catalog& catalog_;
  Matcher matcher_;
  std::vector<PatternHits> hits_;
  std::vector<std::vector<int>> patternRules_;  // pattern -> rules whose groups hold it
  std::vector<std::size_t> ruleLines_, ruleStamp_;
  std::size_t lineSerial_ = 0;
  std::map<std::pair<std::string, std::size_t>, std::vector<int>> keptTapHits_;
  // Fact lines past the extractor's cap that matched rule patterns, counted by (fact, patterns): few keys, searched
  // in place (a map keyed by a string and a vector built a key, two allocations, per counted line).
  struct PastFactHits {
    std::string_view fact;
    std::vector<int> pats;
    std::size_t count = 0;
  };
  std::vector<PastFactHits> pastFactHits_;
  // Watchdog entries keyed by (input, offset): input order.
  using WatchKey = LineKey;
  std::map<int, std::pair<WatchKey, WatchdogEntry>> watchByRank_;
  std::vector<std::pair<WatchKey, WatchdogEntry>> watchNoRank_;
  // The current input.
  std::size_t input_ = SIZE_MAX, inputBytes_ = 0, inputLines_ = 0;
  bool endsWithNewline_ = true;
  std::string file_;   // its name, valid UTF-8
  PreparedBlock own_;  // block()'s
  // Time bounds of unstamped failing lines: the last stamp a matched line of this input had, and the patterns
  // whose first unstamped failing line since then waits for the next stamped line of the input.
  void stampSeen(std::string_view stamp);
  std::string lastStamp_;
  NormLine owned_;  // line()'s full normalisation of the line it reads, when the line needs one
  std::vector<std::pair<int, std::pair<LineKey, Evidence>>> awaiting_;
  int lastTapRank_ = -1;
  // Hosts of matching lines by id (TextIds: bounded; a host past the cap is looked up in the sets).
  TextIds hostIds_{4096, 256};
  // Ranks seen, one bit each: a launcher-tagged log of thousands of ranks changes rank nearly every line, and a
  // tree insert there cost more than the line's other work.
  void noteRank(int rank);
  std::vector<bool> rankSeen_;
};

}  // namespace pf::doctor

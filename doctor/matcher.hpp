// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The matcher: one pass of the multi-literal scanner over a log finds every line that holds a rule's anchor
// literal or one of the INFO extractor's "tap" literals; only those lines are then checked for the pattern's
// other literals. Nothing runs per line on the lines that match nothing (most of a large log), which is what
// keeps the matcher at several hundred MB/s on one core (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "multi_literal.hpp"
#include "rule_catalog.hpp"

namespace pf::doctor {

/// What one scan found: for every literal pattern, the start offsets of the lines it matched (ascending,
/// each line once); and the start offsets of lines that hold a tap literal.
struct ScanResult {
  std::vector<std::vector<std::size_t>> patternLines;
  std::vector<std::size_t> tapLines;
  /// Per tap line: bit i set when taps[i] occurs in it (i < 32; later taps set every bit). Lets the extractor
  /// skip the searches for literals the line cannot hold.
  std::vector<std::uint32_t> tapMasks;
  /// The same lines in text order, as (line start, what): a pattern index (>= 0), or -(k + 1) for tapLines[k].
  /// A line's events are next to each other, in the order their literals occur in it.
  std::vector<std::pair<std::size_t, int>> events;
  /// Per event, where its line ends (lineBounds' end: before the newline and a '\r'), so that the scanner
  /// does not search for it again.
  std::vector<std::size_t> eventLineEnds;
  /// Starts of the lines that hold one of the matcher's markers (ascending, each line once).
  std::vector<std::size_t> markerLines;
  /// The literal search's raw hits, (literal id, offset): scratch of Matcher::scan, kept here with the rest so
  /// that scans of different blocks on different threads share nothing.
  std::vector<std::pair<int, std::size_t>> literalHits;
  /// Every newline's offset in the text scanned (newlineOffsets): the lines' bounds, numbers and count.
  std::vector<std::uint32_t> newlines;
  void clear();
};

class Matcher {
 public:
  /// @param catalog must outlive the matcher (patterns() points into it).
  /// @param taps literals whose lines the INFO extractor wants to see (each at least 8 bytes).
  /// @param markers literals whose lines are only listed (ScanResult::markerLines), each at least 8 bytes.
  Matcher(const Catalog& catalog, const std::vector<std::string>& taps, const std::vector<std::string>& markers = {});

  /// Scans `text`; results are appended to `out` (call out.clear() between inputs to reuse its memory). Safe to
  /// call from several threads at once, each with its own `out`.
  void scan(std::string_view text, ScanResult& out) const;

  /// The literal patterns in catalog order (rule by rule, group by group, then `unless`), as indexed in
  /// ScanResult::patternLines; facts are not included.
  const std::vector<const LinePattern*>& patterns() const { return patterns_; }
  /// Index of `p` in patterns(), or -1 for a fact pattern.
  int indexOf(const LinePattern* p) const;

 private:
  MultiLiteral literals_;
  std::vector<const LinePattern*> patterns_;
  std::vector<const std::string*> anchors_;  // per pattern: its literal that the scan looks for
  std::vector<std::vector<int>> consumers_;  // literal id -> pattern indexes; -(i + 1) = taps[i]; kMarker
  static constexpr int kMarker = INT32_MIN;
};

/// True when the line holds every literal of `p.all` and none of `p.none`; `found` (one of `p.all`, or null)
/// is known to be in the line and is not searched again.
bool lineMatches(const LinePattern& p, std::string_view line, const std::string* found = nullptr);

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "matcher.hpp"

#include <algorithm>

#include "line_normalizer.hpp"
#include "line_search.hpp"

namespace pf::doctor {

void ScanResult::clear() {
  for (auto& v : patternLines) v.clear();
  tapLines.clear();
  tapMasks.clear();
  events.clear();
  eventLineEnds.clear();
  markerLines.clear();
  newlines.clear();
}

bool lineMatches(const LinePattern& p, std::string_view line, const std::string* found) {
  for (const auto& l : p.all)
    if (&l != found && !lineHolds(line, l)) return false;
  for (const auto& l : p.none)
    if (lineHolds(line, l)) return false;
  return true;
}

Matcher::Matcher(const Catalog& catalog, const std::vector<std::string>& taps,
                 const std::vector<std::string>& markers) {
  auto addPattern = [&](const LinePattern& p) {
    if (!p.fact.empty()) return;
    const std::string& anchor = p.anchor();  // chosen among the pattern's literals: once
    const int lit = literals_.add(anchor);
    anchors_.push_back(&anchor);
    if (consumers_.size() <= static_cast<std::size_t>(lit)) consumers_.resize(static_cast<std::size_t>(lit) + 1);
    consumers_[static_cast<std::size_t>(lit)].push_back(static_cast<int>(patterns_.size()));
    patterns_.push_back(&p);
  };
  for (const auto& r : catalog.rules) {
    for (const auto& g : r.groups)
      for (const auto& p : g) addPattern(p);
    for (const auto& p : r.unless) addPattern(p);
  }
  for (std::size_t i = 0; i < taps.size(); ++i) {
    const int lit = literals_.add(taps[i]);
    if (consumers_.size() <= static_cast<std::size_t>(lit)) consumers_.resize(static_cast<std::size_t>(lit) + 1);
    auto& c = consumers_[static_cast<std::size_t>(lit)];
    const int code = -static_cast<int>(i) - 1;
    if (std::find(c.begin(), c.end(), code) == c.end()) c.push_back(code);
  }
  for (const auto& m : markers) {
    const int lit = literals_.add(m);
    if (consumers_.size() <= static_cast<std::size_t>(lit)) consumers_.resize(static_cast<std::size_t>(lit) + 1);
    auto& c = consumers_[static_cast<std::size_t>(lit)];
    if (std::find(c.begin(), c.end(), kMarker) == c.end()) c.push_back(kMarker);
  }
  literals_.compile();
}

int Matcher::indexOf(const LinePattern* p) const {
  auto it = std::find(patterns_.begin(), patterns_.end(), p);
  return it == patterns_.end() ? -1 : static_cast<int>(it - patterns_.begin());
}

void Matcher::scan(std::string_view text, ScanResult& out) const {
  out.patternLines.resize(patterns_.size());
  out.literalHits.clear();
  literals_.searchInto(text, out.literalHits);
  // A hit's line is found among the newlines, by a cursor that only moves forward (the hits are in text order).
  out.newlines.clear();
  const bool indexed = text.size() < UINT32_MAX;
  if (indexed) newlineOffsets(text, out.newlines);
  const std::vector<std::uint32_t>& nl = out.newlines;
  std::size_t lineBegin = 0, lineEnd = 0, textEnd = 0, next = 0;
  bool haveLine = false;
  for (const auto& [lit, off] : out.literalHits) {
    if (!haveLine || off < lineBegin || off >= lineEnd) {
      if (indexed && (next == 0 || nl[next - 1] < off)) {
        while (next < nl.size() && nl[next] < off) ++next;
        lineBegin = next > 0 ? nl[next - 1] + std::size_t{1} : 0;
        textEnd = next < nl.size() ? nl[next] : text.size();
        if (textEnd > lineBegin && text[textEnd - 1] == '\r') --textEnd;
      } else {
        std::tie(lineBegin, textEnd) = lineBounds(text, off);
      }
      haveLine = true;
      // lineEnd excludes the newline; an offset exactly there cannot be a hit start, so this stays correct.
      lineEnd = textEnd == lineBegin ? lineBegin + 1 : textEnd;
    }
    const std::string_view line = text.substr(lineBegin, lineEnd - lineBegin);
    for (int c : consumers_[static_cast<std::size_t>(lit)]) {
      if (c == kMarker) {
        if (out.markerLines.empty() || out.markerLines.back() != lineBegin) out.markerLines.push_back(lineBegin);
        continue;
      }
      if (c < 0) {
        const int tap = -c - 1;
        const std::uint32_t bit = tap < 32 ? std::uint32_t{1} << tap : ~std::uint32_t{0};
        if (out.tapLines.empty() || out.tapLines.back() != lineBegin) {
          out.events.emplace_back(lineBegin, -static_cast<int>(out.tapLines.size()) - 1);
          out.eventLineEnds.push_back(textEnd);
          out.tapLines.push_back(lineBegin);
          out.tapMasks.push_back(bit);
        } else {
          out.tapMasks.back() |= bit;
        }
        continue;
      }
      auto& lines = out.patternLines[static_cast<std::size_t>(c)];
      if (!lines.empty() && lines.back() == lineBegin) continue;
      // The scan found the pattern's anchor on this line: only its other literals are searched.
      if (lineMatches(*patterns_[static_cast<std::size_t>(c)], line, anchors_[static_cast<std::size_t>(c)])) {
        lines.push_back(lineBegin);
        out.events.emplace_back(lineBegin, c);
        out.eventLineEnds.push_back(textEnd);
      }
    }
  }
}

}  // namespace pf::doctor

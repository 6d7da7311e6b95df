// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "multi_literal.hpp"

#include <gtest/gtest.h>

#include <random>

#include "matcher.hpp"
#include "pf/error.hpp"

namespace pf::doctor {
namespace {

// Every occurrence, found naively with std::string::find, in offset order.
std::vector<std::pair<int, std::size_t>> naive(const std::vector<std::string>& lits, const std::string& text) {
  std::vector<std::pair<int, std::size_t>> out;
  for (std::size_t i = 0; i < text.size(); ++i)
    for (std::size_t id = 0; id < lits.size(); ++id)
      if (text.compare(i, lits[id].size(), lits[id]) == 0) out.emplace_back(static_cast<int>(id), i);
  return out;
}

TEST(DoctorMultiLiteral, MatchesNaiveSearchOnRandomText) {
  std::mt19937 rng(7);
  const std::string alphabet = "abcd \n";
  for (int round = 0; round < 50; ++round) {
    std::vector<std::string> lits;
    MultiLiteral ml;
    for (int k = 0; k < 6; ++k) {
      std::string l;
      const std::size_t len = 8 + rng() % 6;
      for (std::size_t i = 0; i < len; ++i) l += alphabet[rng() % 4];
      if (std::find(lits.begin(), lits.end(), l) != lits.end()) continue;
      EXPECT_EQ(ml.add(l), static_cast<int>(lits.size()));
      lits.push_back(l);
    }
    ml.compile();
    std::string text;
    for (int i = 0; i < 4000; ++i) text += alphabet[rng() % alphabet.size()];
    for (int k = 0; k < 20; ++k) text.insert(rng() % text.size(), lits[rng() % lits.size()]);
    std::vector<std::pair<int, std::size_t>> got;
    ml.searchInto(text, got);
    auto want = naive(lits, text);
    std::sort(got.begin(), got.end(),
              [](auto a, auto b) { return std::tie(a.second, a.first) < std::tie(b.second, b.first); });
    std::sort(want.begin(), want.end(),
              [](auto a, auto b) { return std::tie(a.second, a.first) < std::tie(b.second, b.first); });
    EXPECT_EQ(got, want) << "round " << round;
  }
}

// The search runs segments of 64 KiB, each as four interleaved ranges: occurrences across those seams and at
// the text's ends must come out once each, in offset order (ids in order at one offset), without sorting.
TEST(DoctorMultiLiteral, HitsAcrossSegmentAndStreamSeamsComeOutInOrder) {
  const std::vector<std::string> lits = {"NCCL INFO", "NCCL INFO Channel", "CO Channel 0", "ibv_reg_mr failed"};
  MultiLiteral ml;
  for (const auto& l : lits) ml.add(l);
  ml.compile();
  std::mt19937 rng(11);
  for (std::size_t size : {std::size_t{9}, std::size_t{65536 + 17}, std::size_t{3 * 65536 + 1000}}) {
    std::string text(size, '.');
    for (std::size_t i = 0; i < text.size(); ++i) text[i] = "NCO IF\n"[rng() % 7];
    // Literals straddling every stream seam (a quarter of a segment) and segment seam, and at both ends.
    for (std::size_t seam = 16384; seam < size; seam += 16384) {
      const std::string& l = lits[seam / 16384 % lits.size()];
      text.replace(seam - l.size() / 2, l.size(), l);
    }
    text.replace(0, std::min(size, lits[1].size()), lits[1].substr(0, std::min(size, lits[1].size())));
    if (size > 40) text.replace(size - lits[3].size(), lits[3].size(), lits[3]);
    std::vector<std::pair<int, std::size_t>> got;
    ml.searchInto(text, got);
    EXPECT_EQ(got, naive(lits, text)) << "text of " << size << " bytes";
  }
}

// A window's candidates are checked by their first and last 8 bytes before the rest: literals that share both and
// differ only between them (lengths 16, 17 and longer, as NCCL's "Ring 00"/"Ring 01" lines do) must still be told
// apart, and a literal that ends past the text must not be read beyond it.
TEST(DoctorMultiLiteral, LiteralsSharingFirstAndLastWordsAreToldApart) {
  const std::vector<std::string> lits = {"NCCL INFO Ring 00 : via P2P",
                                         "NCCL INFO Ring 01 : via P2P",
                                         "NCCL INFO Trees via P2P",
                                         "NCCL INFO Ring 0",
                                         "NCCL INFOx via P2P",
                                         "NCCL INFO via P2P",
                                         "NCCL INFO Ring 00 : via P2P/IPC"};
  MultiLiteral ml;
  for (const auto& l : lits) ml.add(l);
  ml.compile();
  std::mt19937 rng(5);
  for (int round = 0; round < 20; ++round) {
    std::string text;
    while (text.size() < 3000) {
      std::string piece = lits[rng() % lits.size()];
      if (rng() % 3 == 0) piece[8 + rng() % (piece.size() - 8)] ^= 1;  // a near miss in a middle or last byte
      text += piece;
      text += "x \n"[rng() % 3];
    }
    text += lits[0].substr(0, lits[0].size() - 1);  // a literal cut off by the end of the text
    std::vector<std::pair<int, std::size_t>> got;
    ml.searchInto(text, got);
    EXPECT_EQ(got, naive(lits, text)) << "round " << round;
  }
}

TEST(DoctorMultiLiteral, RejectsShortLiteralsAndHandlesEdges) {
  MultiLiteral ml;
  EXPECT_THROW(ml.add("short"), UsageError);
  EXPECT_EQ(ml.add("exactly8"), 0);
  EXPECT_EQ(ml.add("exactly8"), 0);  // duplicates share an id
  ml.compile();
  std::vector<std::pair<int, std::size_t>> hits;
  ml.searchInto("", hits);
  ml.searchInto("exactly", hits);
  EXPECT_TRUE(hits.empty());
  ml.searchInto("exactly8exactly8", hits);
  EXPECT_EQ(hits, (std::vector<std::pair<int, std::size_t>>{{0, 0}, {0, 8}}));
}

TEST(DoctorMatcher, ChecksOtherLiteralsAndExclusionsOnTheSameLine) {
  Catalog c;
  Rule r;
  r.id = "other.t";
  LinePattern p;
  p.all = {"ibv_reg_mr", "Cannot allocate memory"};
  p.none = {"ignore me"};
  r.groups = {{p}};
  c.rules.push_back(r);
  Matcher m(c, {});
  ScanResult out;
  m.scan(
      "Cannot allocate memory\nx ibv_reg_mr y Cannot allocate memory\nibv_reg_mr Cannot allocate memory ignore me\n"
      "ibv_reg_mr\n",
      out);
  ASSERT_EQ(out.patternLines.size(), 1u);
  EXPECT_EQ(out.patternLines[0], std::vector<std::size_t>{23});
}

// The scanner walks ScanResult::events: every matched line once per pattern and once for its taps, in text
// order, with the tap masks of the literals each tap line holds.
TEST(DoctorMatcher, EventsListPatternAndTapLinesInTextOrder) {
  Catalog c;
  Rule r;
  r.id = "other.t";
  LinePattern p;
  p.all = {"ibv_reg_mr failed"};
  r.groups = {{p}};
  c.rules.push_back(r);
  Matcher m(c, {"NCCL INFO Channel", "GDRDMA path"});
  ScanResult out;
  const std::string text =
      "a NCCL INFO Channel x GDRDMA path\n"    // 0: a tap line holding both taps
      "nothing here at all\n"                  // 34
      "ibv_reg_mr failed NCCL INFO Channel\n"  // 54: a rule hit and a tap on one line
      "ibv_reg_mr failed\n";                   // 90
  m.scan(text, out);
  EXPECT_EQ(out.events, (std::vector<std::pair<std::size_t, int>>{{0, -1}, {54, 0}, {54, -2}, {90, 0}}));
  EXPECT_EQ(out.tapLines, (std::vector<std::size_t>{0, 54}));
  EXPECT_EQ(out.tapMasks, (std::vector<std::uint32_t>{3u, 1u}));
  // Each event carries its line's end (before the newline), which the scanner uses instead of searching again.
  EXPECT_EQ(out.eventLineEnds, (std::vector<std::size_t>{33, 89, 89, 107}));
}

// The same lines' ends with a '\r' before the newline and a last line without one.
TEST(DoctorMatcher, EventLineEndsStopBeforeCarriageReturnAndAtTheEnd) {
  Matcher m(Catalog{}, {"NCCL INFO Channel"});
  ScanResult out;
  m.scan("NCCL INFO Channel 1\r\nNCCL INFO Channel 2", out);
  EXPECT_EQ(out.events, (std::vector<std::pair<std::size_t, int>>{{0, -1}, {21, -2}}));
  EXPECT_EQ(out.eventLineEnds, (std::vector<std::size_t>{19, 40}));
}

// Markers (the timeline's literals, found in the same pass) list their lines once each, in text order, and add no
// event: a marker that is also a tap still feeds the extractor as a tap.
TEST(DoctorMatcher, MarkerLinesListedOnceWithoutEvents) {
  Matcher m(Catalog{}, {"NCCL INFO Channel"}, {"ProcessGroupNCCL", "NCCL INFO Channel", "lost carrier"});
  ScanResult out;
  const std::string text =
      "ProcessGroupNCCL.cpp ProcessGroupNCCL x\n"  // 0: two hits on one line
      "plain line\n"                               // 40
      "NCCL INFO Channel 0\n"                      // 51: a tap and a marker
      "eth0 lost carrier\n";                       // 71
  m.scan(text, out);
  EXPECT_EQ(out.markerLines, (std::vector<std::size_t>{0, 51, 71}));
  EXPECT_EQ(out.events, (std::vector<std::pair<std::size_t, int>>{{51, -1}}));
  out.clear();
  EXPECT_TRUE(out.markerLines.empty());
}

}  // namespace
}  // namespace pf::doctor

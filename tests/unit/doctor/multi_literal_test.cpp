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

}  // namespace
}  // namespace pf::doctor

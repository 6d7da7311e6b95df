// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "line_search.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "line_words.hpp"

namespace pf::doctor {
namespace {

// findInLine answers what string_view::find answers, for literals of 0 to 40 bytes at every place in lines
// of 0 to 200 bytes: inside the 16-byte blocks, across them, in the bytes after the last block, and absent.
TEST(DoctorLineSearch, AgreesWithStringViewFind) {
  std::mt19937 rng(3);
  const std::string alphabet = "ab c";  // small, so partial matches (first and last byte equal) are common
  for (int round = 0; round < 20000; ++round) {
    std::string line(rng() % 201, ' ');
    for (char& c : line) c = alphabet[rng() % alphabet.size()];
    std::string lit(rng() % 41, ' ');
    for (char& c : lit) c = alphabet[rng() % alphabet.size()];
    if (!line.empty() && lit.size() <= line.size() && rng() % 2 == 0)
      line.replace(rng() % (line.size() - lit.size() + 1), lit.size(), lit);
    const std::string_view l(line), s(lit);
    ASSERT_EQ(findInLine(l, s), l.find(s)) << "line \"" << line << "\" literal \"" << lit << "\"";
    ASSERT_EQ(lineHolds(l, s), l.find(s) != std::string_view::npos);
  }
}

TEST(DoctorLineSearch, ComparesBytesAndPrefixesExactly) {
  const std::string a = "NCCL INFO Channel 00/02 : 0 1", b = "NCCL INFO Channel 00/02 : 0 2";
  for (std::size_t n = 0; n <= a.size(); ++n)
    EXPECT_EQ(sameBytes(a.data(), b.data(), n), n < a.size()) << n << " bytes";
  EXPECT_TRUE(holdsAt("stdout F x", 0, "stdout F "));
  EXPECT_FALSE(holdsAt("stdout F", 0, "stdout F "));  // one byte short
  EXPECT_FALSE(holdsAt("abc", 4, ""));                // past the end
  EXPECT_TRUE(holdsAt("abc", 3, ""));
}

// wordAfterLast and wordsAfterRankAndNranks answer what walking every word does (the word after the last
// whole-word key that has one), on random lines of keys, near-keys ("nranks", "ranks"), numbers and blanks.
TEST(DoctorLineWords, WordsAfterKeysAgreeWithAWordWalk) {
  auto walk = [](std::string_view s, std::string_view key) {
    std::string_view prev, found;
    std::size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
      std::size_t j = i;
      while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
      if (j == i) break;
      const std::string_view w = s.substr(i, j - i);
      if (prev == key) found = w;
      prev = w;
      i = j;
    }
    return found;
  };
  std::mt19937 rng(5);
  const std::vector<std::string> pieces = {"rank", "nranks", "ranks", "rank3", "commId", "0x1f", "7", " ", "\t", "  "};
  for (int round = 0; round < 20000; ++round) {
    std::string line;
    for (int k = rng() % 12; k > 0; --k) line += pieces[rng() % pieces.size()] + (rng() % 3 ? " " : "");
    for (std::string_view key : {"rank", "nranks", "commId"}) {
      const std::string_view got = wordAfterLast(line, key), want = walk(line, key);
      ASSERT_EQ(got, want) << "line \"" << line << "\" key " << key;
      ASSERT_EQ(got.data() == nullptr, want.empty()) << "line \"" << line << "\" key " << key;
    }
    std::string_view rank, nranks;
    wordsAfterRankAndNranks(line, rank, nranks);
    ASSERT_EQ(rank, walk(line, "rank")) << "line \"" << line << "\"";
    ASSERT_EQ(nranks, walk(line, "nranks")) << "line \"" << line << "\"";
  }
  EXPECT_EQ(wordAfterLast("comm 0x1 rank 3 nranks 8 commId 0xab - Init COMPLETE", "rank"), "3");
  EXPECT_EQ(wordAfterLast("comm 0x1 rank 3 nranks 8", "nranks"), "8");
  EXPECT_EQ(wordAfterLast("rank", "rank").data(), nullptr);
}

// newlineOffsets lists every newline a byte loop finds, in order, in texts of 0 to 300 bytes with newlines
// anywhere (both ends, runs of them, on either side of the 16- and 64-byte steps), appended after what `out` held.
TEST(DoctorLineSearch, NewlineOffsetsListEveryNewline) {
  std::mt19937 rng(5);
  for (int round = 0; round < 5000; ++round) {
    std::string text(rng() % 301, 'x');
    const unsigned every = 1 + rng() % 90;  // newline density: from every byte to about one a line
    for (char& c : text)
      if (rng() % every == 0) c = '\n';
    std::vector<std::uint32_t> expected = {7, 9};  // kept: the offsets are appended
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') expected.push_back(static_cast<std::uint32_t>(i));
    std::vector<std::uint32_t> got = {7, 9};
    newlineOffsets(text, got);
    ASSERT_EQ(got, expected) << "text of " << text.size() << " bytes, round " << round;
  }
}

}  // namespace
}  // namespace pf::doctor

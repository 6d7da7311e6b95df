// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "line_search.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

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

}  // namespace
}  // namespace pf::doctor

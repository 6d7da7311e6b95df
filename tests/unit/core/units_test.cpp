// SPDX-License-Identifier: Apache-2.0
#include "pf/units.hpp"

#include <gtest/gtest.h>

#include "pf/error.hpp"

namespace pf {
namespace {

TEST(ParseSize, AcceptsPlainAndBinarySuffixes) {
  EXPECT_EQ(parseSize("8", "-b"), 8u);
  EXPECT_EQ(parseSize("8B", "-b"), 8u);
  EXPECT_EQ(parseSize("64K", "-b"), 64u * 1024);
  EXPECT_EQ(parseSize("16m", "-b"), 16u << 20);
  EXPECT_EQ(parseSize("2G", "-b"), 2ull << 30);
}

TEST(ParseSize, RejectsGarbageWithTheOptionName) {
  for (const char* bad : {"", "K", "-8", "1.5M", "12X", "abc", "99999999999999999999", "18446744073709551615G"}) {
    try {
      parseSize(bad, "--minbytes");
      FAIL() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--minbytes"), std::string::npos) << e.what();
      EXPECT_EQ(e.code(), ExitCode::kUsage);
    }
  }
}

TEST(FitNumber, FollowsNcclTestsFallbacks) {
  EXPECT_EQ(fitNumber(188.69, 7), "188.69");
  EXPECT_EQ(fitNumber(14876.71, 7), "14876.7");
  EXPECT_EQ(fitNumber(30750.4, 6), "30750");
  EXPECT_EQ(fitNumber(12345678.0, 7), "1.2e+07");
  EXPECT_EQ(fitNumber(1234567.0, 6), "1e+06");
  EXPECT_EQ(fitNumber(2.654, 6), "2.65");
}

TEST(Bandwidth, IsDecimalGigabytesPerSecond) {
  EXPECT_DOUBLE_EQ(gbPerSecond(1e9, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(gbPerSecond(500000, 188.69e-6), 500000 / 188.69e-6 / 1e9);
  EXPECT_EQ(gbPerSecond(1, 0), 0.0);
}

TEST(HumanBytes, UsesBinarySuffixes) {
  EXPECT_EQ(humanBytes(512), "512 B");
  EXPECT_EQ(humanBytes(16u << 20), "16 MiB");
  EXPECT_EQ(humanBytes(1536), "1.5 KiB");
  EXPECT_EQ(fmt::format("{}", GBps{12.345}), "12.35 GB/s");
}

TEST(Counted, SaysOneWithoutAnS) {
  EXPECT_EQ(counted(1, "node"), "1 node");
  EXPECT_EQ(counted(0, "node"), "0 nodes");
  EXPECT_EQ(counted(2, "rank"), "2 ranks");
  EXPECT_EQ(counted(3, "match", "matches"), "3 matches");
}

}  // namespace
}  // namespace pf

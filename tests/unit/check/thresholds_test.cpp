// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "thresholds.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pf/error.hpp"
#include "toml_file.hpp"

namespace pf::check {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string usageMessage(const std::string& text) {
  try {
    thresholdsFromText(text, "t.toml");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(TomlFile, FlattensTablesNumbersBoolsAndStrings) {
  auto t = parseToml(
      "# header\ntop = 1\n[pairs]\nx = 0.25 # trailing\ny = 1_000\nflag = true\nname = \"a # not a comment\"\n"
      "[a.b]\nz = -3e2\n",
      "f");
  EXPECT_EQ(std::get<double>(t.at("top")), 1);
  EXPECT_EQ(std::get<double>(t.at("pairs.x")), 0.25);
  EXPECT_EQ(std::get<double>(t.at("pairs.y")), 1000);
  EXPECT_EQ(std::get<bool>(t.at("pairs.flag")), true);
  EXPECT_EQ(std::get<std::string>(t.at("pairs.name")), "a # not a comment");
  EXPECT_EQ(std::get<double>(t.at("a.b.z")), -300);
}

TEST(TomlFile, RejectsBadTomlAndArraysNamingTheFile) {
  auto msg = [](const std::string& text) {
    try {
      parseToml(text, "f.toml");
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(msg("a = [1, 2]\n"), HasSubstr("f.toml: 'a' is an array"));
  EXPECT_THAT(msg("a = 1\nb = = 2\n"), AllOf(HasSubstr("f.toml: not valid TOML"), HasSubstr("line 2")));
  EXPECT_THAT(msg("a = 1\na = 2\n"), HasSubstr("f.toml: not valid TOML"));
  EXPECT_THAT(msg("just words\n"), HasSubstr("f.toml: not valid TOML"));
  EXPECT_THAT(msg("s = \"open\n"), HasSubstr("f.toml: not valid TOML"));
}

TEST(Thresholds, DefaultsAndOverrides) {
  Thresholds d;
  EXPECT_EQ(d.pairs.bwFailFraction, 0.5);
  Thresholds t = thresholdsFromText(
      "[pairs]\nbandwidth_fail_fraction = 0.3\nlatency_max_us = 80\n"
      "[baseline]\nregression_percent = 10\n",
      "t.toml");
  EXPECT_EQ(t.pairs.bwFailFraction, 0.3);
  EXPECT_EQ(t.pairs.latMaxUs, 80);
  EXPECT_EQ(t.regressionPercent, 10);
  EXPECT_EQ(t.pairs.bwWarnFraction, 0.75);  // untouched
  EXPECT_EQ(t.source, "t.toml");
  EXPECT_EQ(t.toJson()["pairs.bandwidth_fail_fraction"], 0.3);
}

TEST(Thresholds, BadValuesNameTheKey) {
  EXPECT_THAT(usageMessage("[pairs]\nbandwith_fail_fraction = 0.3\n"),
              HasSubstr("unknown threshold 'pairs.bandwith_fail_fraction'"));
  EXPECT_THAT(usageMessage("[pairs]\nbandwidth_fail_fraction = 2\n"), HasSubstr("out of range"));
  // nan compares false with both bounds: it passed the range check and switched the baseline gate off.
  EXPECT_THAT(usageMessage("[baseline]\nregression_percent = nan\n"),
              HasSubstr("'baseline.regression_percent' = nan is out of range"));
  EXPECT_THAT(usageMessage("[pairs]\nlatency_slack_us = inf\n"), HasSubstr("= inf is out of range"));
  EXPECT_THAT(usageMessage("[pairs]\nbandwidth_fail_fraction = \"half\"\n"), HasSubstr("must be a number"));
  EXPECT_THAT(usageMessage("[pairs]\nbandwidth_fail_fraction = 0.8\n"), HasSubstr("milder"));
  EXPECT_THROW(loadThresholds("/no/such/thresholds.toml"), UsageError);
}

}  // namespace
}  // namespace pf::check

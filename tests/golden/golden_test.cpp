// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Golden output: for a fixed document of each kind (tests/golden/documents/<kind>.json, written by real runs of
// the commands and kept as they were), the output of every registered format is compared byte for byte with
// tests/golden/expected/<kind>.<format>. A change in what a format prints shows up here as a diff to review.
// After a deliberate change, regenerate with PF_GOLDEN_UPDATE=1 and read the diff before committing it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pf/report_io.hpp"
#include "reporter.hpp"

namespace pf::reports {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> documents() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(PF_GOLDEN_DIR) / "documents"))
    if (e.path().extension() == ".json") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, EveryFormatMatchesItsExpectedOutput) {
  const std::string kind = GetParam();
  const fs::path dir(PF_GOLDEN_DIR);
  const RunReport report = readReport((dir / "documents" / (kind + ".json")).string());
  const bool update = std::getenv("PF_GOLDEN_UPDATE") != nullptr;
  for (const std::string& format : reporterFormats()) {
    const fs::path expected = dir / "expected" / (kind + "." + format);
    const std::string got = renderDocument(format, report);
    if (update) {
      std::ofstream(expected, std::ios::binary) << got;
      continue;
    }
    ASSERT_TRUE(fs::exists(expected)) << expected << " is missing: run this test with PF_GOLDEN_UPDATE=1";
    EXPECT_EQ(got, slurp(expected)) << kind << " as " << format << " differs from " << expected;
  }
}

INSTANTIATE_TEST_SUITE_P(Documents, Golden, ::testing::ValuesIn(documents()),
                         [](const auto& info) { return info.param; });

TEST(Golden, CoversEveryKindOfDocument) {
  // One document per command that writes one, so that every (document kind x format) pair is compared.
  const auto docs = documents();
  for (const char* kind : {"check", "doctor", "env", "pairs", "probe", "scale", "sweep", "sweep_v1"})
    EXPECT_NE(std::find(docs.begin(), docs.end(), kind), docs.end()) << "no golden document " << kind << ".json";
}

}  // namespace
}  // namespace pf::reports

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL's diagnostics report of a real run, read by check's parser: ci/gpu_validate.sh runs an NCCL sweep with
// NCCL_RUN_DIAGNOSTICS=1 and NCCL_RUN_RAS_DIAGNOSTICS=1, saves its standard output and names the file in
// PF_NCCL_DIAG_LOG. Without that variable there is nothing to read (skipped; gpu_validate counts a skip as a
// failure, so the step cannot pass unread).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "nccl_diag.hpp"

namespace pf::check {
namespace {

TEST(NcclDiagLive, TheSavedReportParsesWithItsFramesAndFindings) {
  const char* path = std::getenv("PF_NCCL_DIAG_LOG");
  if (!path) GTEST_SKIP() << "PF_NCCL_DIAG_LOG is not set: ci/gpu_validate.sh sets it";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  const auto lines = parseNcclDiag(text.str());
  ASSERT_FALSE(lines.empty()) << "no NCCL DIAG line in " << path << ": NCCL older than 2.31, or the report moved";
  int frames = 0, tagged = 0;
  for (const auto& l : lines) {
    frames += l.text.starts_with("===") || l.text.find("completed in") != std::string::npos;
    tagged += !l.tag.empty();
    std::cout << "[" << l.tag << "] " << l.host << " | " << l.area << " | " << l.text << "\n";
  }
  EXPECT_GE(frames, 2) << "a report has a header and a completion line";
  EXPECT_GE(tagged, 1) << "a report has at least one check result";
  for (const auto& f : ncclDiagFindings(lines, "this-node"))
    std::cout << toString(f.status) << ": " << f.message << "\n  remedy: " << f.remedy << "\n";
}

}  // namespace
}  // namespace pf::check

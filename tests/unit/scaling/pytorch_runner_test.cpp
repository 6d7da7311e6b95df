// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `scale --framework pytorch` without running torch: the result line parser and the no-torch error.
#include "pytorch_runner.hpp"

#include <gtest/gtest.h>

#include "pf/error.hpp"

using namespace pf::scaling;

TEST(PytorchRunner, FindsTheResultLineInTorchrunOutput) {
  // torchrun --tee prefixes every rank's line with "[default<rank>]:"; other lines must be ignored.
  const std::string out =
      "[default0]:some warning\n"
      "[default1]:PF_DDP_RESULT {torn\n"
      "[default0]:PF_DDP_RESULT {\"ranks\": 2, \"step_us_p50\": 12.5, \"ranks_identical\": true}\n";
  const auto r = parseDdpOutput(out);
  ASSERT_TRUE(r.is_object());
  EXPECT_EQ(r["ranks"], 2);
  EXPECT_DOUBLE_EQ(r["step_us_p50"].get<double>(), 12.5);
  EXPECT_TRUE(parseDdpOutput("no result here\n").is_null());
}

TEST(PytorchRunner, NoTorchIsAUsageErrorNamingWhatWasTriedAndTheFix) {
  try {
    findTorchPython({"/nonexistent/pf-python3"});
    FAIL() << "expected a UsageError";
  } catch (const pf::UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("/nonexistent/pf-python3"), std::string::npos) << what;
    EXPECT_NE(what.find("apt-get install python3-torch"), std::string::npos) << what;
  }
}

TEST(PytorchRunner, TheBundledScriptIsFound) { EXPECT_NE(findDdpScript().find("ddp_bench.py"), std::string::npos); }

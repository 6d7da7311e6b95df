// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The one verdict rule (docs/exit-codes.md), as a table: statuses in, verdict and exit code out.
#include "pf/verdict.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace pf {
namespace {

struct Case {
  std::vector<Status> statuses;
  bool strict;
  Status verdict;
  int exit_code;
};

std::vector<Result> results(const std::vector<Status>& statuses) {
  std::vector<Result> out;
  for (Status s : statuses) {
    Result r;
    r.key = "x";
    r.status = s;
    out.push_back(r);
  }
  return out;
}

TEST(Verdict, Table) {
  using S = Status;
  const std::vector<Case> table = {
      {{}, false, S::kPass, 0},
      {{S::kPass}, false, S::kPass, 0},
      {{S::kPass, S::kSkipped, S::kAbsent}, false, S::kPass, 0},  // skipped and absent are neutral
      {{S::kSkipped}, true, S::kPass, 0},
      {{S::kAbsent, S::kAbsent}, true, S::kPass, 0},
      {{S::kPass, S::kWarn}, false, S::kWarn, 0},  // a warning passes...
      {{S::kPass, S::kWarn}, true, S::kWarn, 1},   // ...unless --strict
      {{S::kWarn, S::kFail}, false, S::kFail, 1},
      {{S::kFail, S::kSkipped}, false, S::kFail, 1},
      {{S::kFail, S::kTimeout}, false, S::kTimeout, 4},
      {{S::kTimeout}, true, S::kTimeout, 4},
      {{S::kFail, S::kError}, false, S::kError, 3},  // a library that failed outranks a failed check
      {{S::kTimeout, S::kError, S::kWarn}, true, S::kError, 3},
      {{S::kError, S::kAbsent}, false, S::kError, 3},
  };
  for (size_t i = 0; i < table.size(); ++i) {
    const Case& c = table[i];
    Verdict v = decideVerdict(results(c.statuses), c.strict);
    EXPECT_EQ(v.status, c.verdict) << "case " << i;
    EXPECT_EQ(v.exit_code, c.exit_code) << "case " << i;
  }
}

TEST(Verdict, ApplyWritesTheDocument) {
  RunReport r;
  r.results = results({Status::kWarn});
  applyVerdict(r, true);
  EXPECT_EQ(r.verdict, Status::kWarn);
  EXPECT_EQ(r.exit_code, 1);
  applyVerdict(r, false);
  EXPECT_EQ(r.exit_code, 0);
}

}  // namespace
}  // namespace pf

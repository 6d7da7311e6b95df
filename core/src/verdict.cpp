// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/verdict.hpp"

#include "pf/error.hpp"

namespace pf {

Verdict decideVerdict(const std::vector<Result>& results, bool strict) {
  Verdict v;
  for (const Result& r : results)
    if (r.status != Status::kSkipped && r.status != Status::kAbsent) v.status = worst(v.status, r.status);
  ExitCode code = ExitCode::kPass;
  switch (v.status) {
    case Status::kPass:
    case Status::kSkipped:
    case Status::kAbsent: break;
    case Status::kWarn: code = strict ? ExitCode::kCheckFailed : ExitCode::kPass; break;
    case Status::kFail: code = ExitCode::kCheckFailed; break;
    case Status::kTimeout: code = ExitCode::kTimeout; break;
    case Status::kError: code = ExitCode::kRuntime; break;
  }
  v.exit_code = static_cast<int>(code);
  return v;
}

void applyVerdict(RunReport& report, bool strict) {
  Verdict v = decideVerdict(report.results, strict);
  report.verdict = v.status;
  report.exit_code = v.exit_code;
}

}  // namespace pf

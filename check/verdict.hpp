// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// From findings to the answer: one result of kind "check" per finding (host = the node it names), the verdict
// (the worst status; a warning fails only with --strict), the exit code, and the short summary an operator
// reads in a prolog's log: each failing node, the check, the evidence, the remedy.
#pragma once

#include <string>
#include <vector>

#include "finding.hpp"

namespace pf::check {

/// One Result per finding (kind "check", key "check.<finding.check>").
std::vector<Result> findingsToResults(const std::vector<Finding>& findings);

/// Sets report.verdict and report.exit_code from every result in it. @param strict warnings fail too
void decideVerdict(RunReport& report, bool strict);

/// The summary text (a few lines per failing or warning finding, one line when all passed).
std::string summarize(const RunReport& report, bool strict);

}  // namespace pf::check

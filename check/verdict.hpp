// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// From findings to results: one result of kind "check" per finding (host = the node it names). The verdict
// and exit code are core's (pf/verdict.hpp); the summary an operator reads is the table format's check view
// (reports/text/gate_text.cpp).
#pragma once

#include <string>
#include <vector>

#include "finding.hpp"

namespace pf::check {

/// One Result per finding (kind "check", key "check.<finding.check>").
std::vector<Result> findingsToResults(const std::vector<Finding>& findings);

}  // namespace pf::check

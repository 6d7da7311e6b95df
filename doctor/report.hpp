// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The doctor's output: the results that go into the document (one `diagnosis` per diagnosed cause, plus
// `doctor.info` and `doctor.ranks`). The text a person reads is the table format's doctor view
// (reports/text/doctor_text.cpp), rendered from these results alone.
#pragma once

#include <string>
#include <vector>

#include "analysis.hpp"
#include "pf/result.hpp"

namespace pf::doctor {

/// Results in rank order: diagnoses (status fail), then doctor.info and doctor.ranks (warn when they flag
/// something, else pass). Keys are "doctor.<rule id>", "doctor.info", "doctor.ranks".
std::vector<Result> toResults(const Analysis& a);

}  // namespace pf::doctor

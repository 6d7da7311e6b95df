// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The doctor's output: the results that go into the document (one `diagnosis` per diagnosed cause, plus
// `doctor.info` and `doctor.ranks`) and the text a person reads in the terminal.
#pragma once

#include <string>
#include <vector>

#include "analysis.hpp"
#include "pf/result.hpp"

namespace pf::doctor {

/// Results in rank order: diagnoses (status fail), then doctor.info and doctor.ranks (warn when they flag
/// something, else pass). Keys are "doctor.<rule id>", "doctor.info", "doctor.ranks".
std::vector<Result> toResults(const Analysis& a);

/// The terminal report: ranked diagnoses (cause, evidence as file:line, fix), then what NCCL did and the
/// per-rank findings. `verbose` adds every evidence line and the links.
std::string renderText(const Analysis& a, bool verbose);

}  // namespace pf::doctor

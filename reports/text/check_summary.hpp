// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#pragma once

#include <string>

#include "pf/result.hpp"

namespace pf::reports {

/// One short block per phase of a check (probes, all-reduce, pairs, anything skipped): what ran, against what
/// expectation and where it came from. Empty for a document with none of them.
std::string phaseBlocks(const RunReport& report);

}  // namespace pf::reports

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The last tier of the doctor's answer: when the rules name fewer than two causes for a log that shows a
// failure, the categories of the reported failures its words are closest to (report_memory.hpp) fill the list,
// at a confidence of at most 0.2 (below every rule's), each with the failing lines, the nearest threads and the
// category's checks. A log with no failure sign gets nothing from this tier (words alone are not a failure), and
// neither does one that says nothing about the distributed stack (the memory holds only distributed failures).
#pragma once

#include "analysis.hpp"
#include "log_scanner.hpp"
#include "nccl_versions.hpp"
#include "rule_catalog.hpp"

namespace pf::doctor {

/// Categories at least this share of the nearest reports' vote are offered.
inline constexpr double kMinSimilarShare = 0.2;

/// `fix` without its clauses (". " or "; " ends one) that advise an NCCL release (x.y.z) no newer than the oldest
/// of `running`: moving to it cannot help a job that runs it already. `dropped` gets the last such version.
std::string withoutStaleNcclAdvice(const std::string& fix, const std::vector<NcclVersion>& running,
                                   std::string& dropped);

/// Appends the similar-report diagnoses to `a.diagnoses` (already ranked), as above.
void addSimilarReports(const Catalog& catalog, LogScanner& scan, Analysis& a);

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Rules that hold for some NCCL releases only: a bug that NCCL's release notes list as fixed in a later version
// is the likely cause of its symptom only when the job ran a release before the fix. Such a rule names the range
// as a fact, {"fact": "nccl_in FROM BELOW"}: true when the log names an NCCL version v with FROM <= v < BELOW
// (docs/doctor-rules.md). The versions come from NCCL's "NCCL version 2.8.3+cuda11.1" INFO line, from the
// "..., NCCL version 2.14.3" that PyTorch appends to its NCCL errors and from nccl-tests' "nccl-library=21805".
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "evidence.hpp"

namespace pf::doctor {

/// major, minor, patch.
using NcclVersion = std::array<int, 3>;

/// "2.8.3", "2.18.6+cuda12.1", "2.19.3-1": the first three numbers. nullopt for anything else, and for RCCL's
/// "+hip" builds, whose bugs NCCL's release notes do not describe.
std::optional<NcclVersion> parseNcclVersion(std::string_view text);

/// NCCL_VERSION_CODE as nccl-tests prints it ("nccl-library=21805") as a version string ("2.18.5"): nccl.h encodes
/// X.Y.Z as X*1000 + Y*100 + Z up to 2.8 and X*10000 + Y*100 + Z from 2.9. nullopt unless it is such a number.
std::optional<std::string> ncclVersionFromCode(std::string_view digits);

struct NcclRange {
  NcclVersion from, below;
  bool holds(const NcclVersion& v) const { return from <= v && v < below; }
};

/// The range of a "nccl_in FROM BELOW" fact name; nullopt when `fact` is another fact.
/// @throws UsageError when it is "nccl_in" or starts with "nccl_in " but is not two versions with FROM < BELOW.
std::optional<NcclRange> parseNcclRangeFact(std::string_view fact);

/// The evidence of a range fact: the first line of each version in the range, from `seen` (version text -> the
/// first line that printed it). Empty when no version in the log is in the range.
std::vector<Evidence> ncclRangeEvidence(const NcclRange& range,
                                        const std::map<std::string, Evidence, std::less<>>& seen);

}  // namespace pf::doctor

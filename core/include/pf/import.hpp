// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reading other tools' sweep results into the one result model, so that `preflight report`, the reporters and
// the viewer treat an nccl-tests run like a `preflight sweep` run (docs/reports.md, "Importing nccl-tests
// output").
//
// Contract: whatever the input, these functions return a RunReport or throw pf::UsageError naming the input;
// they never crash, hang or throw anything else. Every number in an imported document was read from the
// input: nothing is computed except the averages nccl-tests itself would print (when its footer is missing)
// and counts of what was read.
#pragma once

#include <string>

#include "pf/result.hpp"

namespace pf {

/// Reads `path` ("-" = stdin) whatever it holds: a Preflight result document (JSON with `schema_version`,
/// read exactly as readReport does), nccl-tests' own JSON (`-J FILE`), or nccl-tests / rccl-tests text
/// output as people post it (launcher prefixes, NCCL INFO lines, old and new column layouts).
/// Imported results are of kind sweep, one per collective run found: keys `sweep.<collective>`, then
/// `sweep.<collective>.2`, `.3` ... for later runs (-N cycles, concatenated outputs) of the same collective.
/// Unreadable lines are recorded in context.extra.import.warnings ({line, text, reason}) and as evidence.
/// @throws UsageError naming the file when it cannot be read or holds no nccl-tests table at all.
RunReport loadDocument(const std::string& path);

/// The text importer behind loadDocument. @param name the input's name for messages and evidence ("FILE:LINE").
/// @throws UsageError when no table row is found.
RunReport importNcclTestsText(const std::string& text, const std::string& name);

/// True when `j` has the shape of nccl-tests' -J output (an object with `version` and `results` or
/// `config`, and no `schema_version`).
bool isNcclTestsJson(const Json& j);

/// Imports nccl-tests' -J JSON (JSON_FILE_VERSION 3, nccl-tests' src/util.cu). Bad entries become warnings
/// (their `line` is 0 and `text` the JSON pointer of the entry). @throws UsageError when it holds no result.
RunReport fromNcclTestsJson(const Json& j, const std::string& name = "<json>");

/// The one sweep result of `report` in nccl-tests' -J layout: the same keys and units as nccl-tests writes
/// (times in us, bandwidths in GB/s, booleans as the strings "true"/"false", root as a "%6i" string).
/// Per-iteration statistics Preflight does not keep (avg, p95, stdev, cv, every time) are null.
/// @throws UsageError when the report does not hold exactly one sweep result.
Json toNcclTestsJson(const RunReport& report);

namespace import {
/// Bytes per element of nccl-tests' (and rccl-tests') type names; 0 for a name it does not print. Also used by
/// the doctor to tell a pasted result row from other text.
int elementSize(const std::string& dtype);
/// Reduction names nccl-tests prints, plus "none" for the data-movement collectives.
bool knownOp(const std::string& op);
}  // namespace import

}  // namespace pf

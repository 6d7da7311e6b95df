// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The rules catalog: data, not code. One JSON file per category in doctor/rules/ (format in
// docs/doctor-rules.md), embedded into the binary at build time so `preflight doctor` works from any directory;
// `--rules DIR` loads another set (for people writing rules).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nccl_versions.hpp"

namespace pf::doctor {

class ReportMemory;

/// The categories, exactly as the issue names them; each has one rules file <category>.json.
const std::vector<std::string>& categories();

/// One line pattern: every literal in `all` occurs in the same line and none of `none` does. Or, instead of
/// literals, a fact that the INFO extractor derived (e.g. "nccl_versions_differ").
struct LinePattern {
  std::vector<std::string> all;
  std::vector<std::string> none;
  std::string fact;
  /// For a "nccl_in FROM BELOW" fact, its range, parsed once when the rules load (nccl_versions.hpp).
  std::optional<NcclRange> ncclRange;
  /// The literal the multi-literal scanner looks for: the longest of `all` (longer = faster scanning) that no
  /// healthy NCCL start-up line holds, else the longest. Every hit of the anchor costs a search for the other
  /// literals in its line, and "NET/Plugin" or "cannot open shared object" are in lines every rank prints.
  const std::string& anchor() const;
};

/// Text taken from a matched line: what follows `after`, up to any byte of `until`.
struct Capture {
  std::string name;
  std::string after;
  std::string until = " \t'\",;)";
};

struct Rule {
  std::string id, category, title, explanation, fix;
  std::vector<std::string> commands;  ///< exact commands that apply the fix or check it
  std::vector<std::string> links;     ///< public threads where the cause was diagnosed
  std::string probe;                  ///< the confirm check that can test the cause on this node ("" = none)
  double confidence = 0.5;            ///< how sure a match makes us, 0..1; ranks diagnoses
  bool fallback = false;              ///< only reported when no other rule matched
  /// The message usually follows an earlier failure (a watchdog timeout, a peer that went away, a generic
  /// CUDA error): ranked after every diagnosis that names a cause, whatever its confidence.
  bool consequence = false;
  /// Rules whose failure, when it came first on the job's timeline (at most kExplainWindowS before this one's),
  /// explains this one: a NIC's link lost in the kernel's log explains NCCL's retry errors on that link. This
  /// diagnosis is then ranked right after that one, as its consequence (ArtefactSession::alignDiagnoses).
  std::vector<std::string> explainedBy;
  std::vector<std::vector<LinePattern>> groups;  ///< every group must match somewhere (any pattern of it)
  std::vector<LinePattern> unless;               ///< any of these anywhere suppresses the rule
  std::vector<Capture> captures;
};

/// The category's fallback of last resort (docs/doctor-rules.md, "The weak-evidence tier"): its last group is the
/// list of failure signs, and its words are generic by design.
/// How long before a failure an `explained_by` failure may be and still explain it: NCCL's IB transport gives up
/// on a link after its retries, about 34 s at the defaults (4.096 us x 2^NCCL_IB_TIMEOUT 20, 8 tries) and under 5
/// minutes at NCCL_IB_TIMEOUT 23; an older event (a link that went down and came back) explains nothing.
inline constexpr double kExplainWindowS = 600;

inline bool isWeakEvidence(const Rule& r) { return r.id == r.category + ".weak-evidence"; }

struct Catalog {
  std::vector<Rule> rules;
  /// Reported failures to compare a log with when no rule names its cause (report_memory.hpp); null = none.
  std::shared_ptr<const ReportMemory> reports;
};

/// Parses one rules file. @throws UsageError naming `fileName` and the rule for any format error.
std::vector<Rule> parseRulesFile(std::string_view fileName, std::string_view text);
/// The catalog compiled into the binary (doctor/rules/*.json at build time), with the built-in report memory.
Catalog builtinCatalog();
/// Every <category>.json in `dir`, with the built-in report memory; @throws UsageError when a category file is missing
/// or malformed.
Catalog loadCatalogDir(const std::string& dir);

/// The files embedded at build time: (file name, content). Defined in the generated rules_embedded.cpp.
const std::vector<std::pair<std::string_view, std::string_view>>& embeddedRuleFiles();

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The doctor's pipeline over a set of inputs: scan every input once, block by block (LogScanner: Matcher,
// normalise only the lines that matched, feed the INFO extractor, keep per pattern what the report uses), evaluate the
// rules (every group of a rule must match somewhere in the inputs, nothing in `unless` may), rank the diagnoses by
// confidence, and run the per-rank analysis.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "evidence.hpp"
#include "info_extractor.hpp"
#include "log_source.hpp"
#include "rank_analysis.hpp"
#include "report_memory.hpp"
#include "rule_catalog.hpp"

namespace pf::doctor {

/// One input held in memory: a name as given (or "<stdin>") and its text.
struct Source {
  std::string name;
  std::string text;
};

struct Diagnosis {
  const Rule* rule = nullptr;
  std::vector<Evidence> evidence;  ///< the first lines per matched group, at most kMaxEvidence in all
  std::size_t hits = 0;            ///< matching lines in all inputs
  /// Where the rule's first failing line is: (input index, byte offset); orders equally likely causes.
  std::pair<std::size_t, std::size_t> first{SIZE_MAX, SIZE_MAX};
  std::map<std::string, std::string> captures;
  std::set<std::string> hosts;
  std::set<int> ranks;
  std::string confirm;  ///< "", "confirmed", "refuted", "unknown" (after --confirm)
  std::string confirmDetail;
  Json confirmMeasured = Json::object();
  std::vector<Neighbour> similar;  ///< for a similar-reports diagnosis: the nearest reports of its category
  /// The earliest printed failing line (not an INFO line) of the rule's patterns, when it has one.
  bool haveFirstFailing = false;
  Evidence firstFailing;
  /// For a consequence (a watchdog timeout, a peer that went away): the cause ranked first, when the
  /// consequence's first failing line was not printed before the cause's.
  const Rule* consequenceOf = nullptr;
  /// Rules of the same category whose lines are all lines of this diagnosis: other readings of the same
  /// failure, folded into it so that one line gives one cause.
  std::vector<std::string> alsoMatched;
  /// The fix with {capture} placeholders filled in.
  std::string fixText() const;
};

/// A failing line of a diagnosis, with the rule that matched it (the cross-artefact timeline places it in time).
struct FailingLine {
  Evidence evidence;
  const Rule* rule = nullptr;
};

struct Analysis {
  std::vector<Diagnosis> diagnoses;             ///< ranked: most likely cause first
  std::vector<FailingLine> failingLines;        ///< per rule pattern its first and its earliest-stamped failing line
  std::vector<std::unique_ptr<Rule>> ownRules;  ///< the rules of similar-reports diagnoses (not in the catalog)
  InfoExtractor info;
  RankReport ranks;
  /// NCCL variables the kept lines say were set ("NCCL_SOCKET_IFNAME set by environment to eth0"), for --confirm.
  std::map<std::string, std::string> settings;
  std::size_t bytes = 0, lines = 0;
};

/// Analyses texts already in memory (tests, fuzzing), streamed in blocks of `blockSize` bytes like files.
Analysis analyze(const Catalog& catalog, const std::vector<Source>& sources, std::size_t blockSize = kDefaultBlockSize);

/// What to do with one input, decided from its first (decompressed) bytes: whether the rules read it, and who
/// else sees its blocks (the artefact readers, doctor/artefacts/). `done` runs after its last block.
struct InputPlan {
  bool scan = true;
  std::function<void(std::string_view)> tap;
  /// When set (and `scan`), called instead of `tap` with the starts of the block's lines that hold one of
  /// lineEventMarkers(), which the scan found.
  /// Its last argument: the block's newlines, as the scan counted them.
  std::function<void(std::string_view, const std::vector<std::size_t>&, std::size_t)> tapMarked;
  std::function<void()> done;
  /// After each block, with the bytes of this input read so far (decompressed): the command's progress line.
  std::function<void(std::size_t)> progress;
};
using InputPlanner = std::function<InputPlan(const std::string& name, std::string_view head)>;
/// The rank of a process (host, pid) that another artefact names (RAS), -1 unknown: asked, after every input is
/// read, for a failing line whose process printed no Init line.
using RankLookup = std::function<int(const std::string& host, long pid)>;

/// Analyses files ("-" = stdin; gzip and zstd decompressed on the fly) in one streaming pass each, as one job.
/// `plan`, when given, sees each input's first kHeadBytes first and decides what reads it.
/// @throws UsageError naming the file that cannot be read or decompressed.
Analysis analyzeFiles(const Catalog& catalog, const std::vector<std::string>& paths,
                      std::size_t blockSize = kDefaultBlockSize, const InputPlanner& plan = {},
                      const RankLookup& rankOf = {});

}  // namespace pf::doctor

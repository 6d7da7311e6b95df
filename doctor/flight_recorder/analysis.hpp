// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The cross-rank analysis of Flight Recorder dumps, as PyTorch's fr_trace does and beyond. Per process group,
// the ranks' entries are matched by sequence id (collective_seq_id for collectives, p2p_seq_id for point-to-
// point), and the first collective where the ranks part ways is named: a rank that never reached it while
// the others wait in it, a rank that called it with another operation, sizes or data types, a rank waiting in
// another group instead, or a rank that came late. Point-to-point ops are matched per pair of ranks instead
// (p2p_match.hpp): a send its peer never received, a receive its peer never sent, a send and its receive that
// disagree on sizes or data types. Ranks whose dump is expected (from pg_config) but not given are said to be
// missing and never guessed about: what they did is unknown.
//
// Contract: analyse() never throws on a list of parsed dumps (an empty list gives a report that says so).
// Only what the dumps hold is reported; a time or a completion the backend does not record (gloo records no
// start or completion times) is left out rather than inferred.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flight_recorder/dump.hpp"
#include "pf/result.hpp"

namespace pf::doctor::fr {

/// What went wrong, most specific first (the order ranks findings of several groups).
enum class VerdictKind {
  kMismatch,     ///< ranks called the same sequence id with a different operation, sizes, dtypes or group
  kNotReached,   ///< ranks whose dump is given never reached the collective the others are in
  kMissingRank,  ///< the others' last collective is known, but some ranks' dumps were not given
  kIncomplete,   ///< every rank entered the collective and it did not complete on some
  kStraggler,    ///< all completed, but one rank entered a collective late
  kCompletedOk,  ///< every given dump agrees and completed what it recorded
};
const char* toString(VerdictKind k);  // "mismatch", "not-reached", "missing-rank", ...

/// The one finding a user reads first: who, where, what.
struct Headline {
  VerdictKind kind = VerdictKind::kCompletedOk;
  std::vector<int> ranks;  ///< the culprit rank(s); empty for completed-ok
  /// The ranks on the other side: those that entered the collective (not-reached, missing-rank), that had not
  /// completed it (incomplete), that hold the reference value (mismatch), or that were on time (straggler).
  /// For a point-to-point finding: the peer whose send or receive is left unmatched (not-reached), or the sender
  /// whose send the culprit's receive disagrees with (mismatch).
  std::vector<int> waiting;
  std::string pg, pgDesc;  ///< the process group (pg_config key and its description)
  std::int64_t seq = -1;   ///< the sequence id, -1 when none
  bool p2p = false;        ///< seq is a p2p_seq_id
  std::string op;          ///< the majority's profiling_name ("gloo:all_reduce"); for p2p the waiting peer's
  std::vector<std::vector<std::int64_t>> inputSizes, outputSizes;  ///< the majority's
  std::vector<std::string> inputDtypes, outputDtypes;              ///< the majority's
  std::string field;                  ///< for a mismatch: "operation", "input sizes", "output sizes", "dtypes", "group"
  std::string culpritValue;           ///< for a mismatch: the culprit's value of `field`
  std::string culpritOp;              ///< for a p2p mismatch: the culprit's own op ("gloo:recv 2<-1")
  std::int64_t culpritSeq = -1;       ///< for a p2p mismatch: the culprit's p2p_seq_id
  std::optional<double> lateMs;       ///< for a straggler: how late its entry was created, in ms
  std::optional<double> lateLimitMs;  ///< for a straggler: the lateness that counted as late in this group
  std::string culpritCall;            ///< the culprit's last recorded call ("pg 0 seq 2 gloo:broadcast"), "" if unknown
  std::vector<Frame> frames;          ///< that call's Python frames, innermost first, torch's own left out
  std::string summary;                ///< set only where no finding applies; summaryOf() writes the sentence
  /// For missing-rank: the given ranks did not complete that collective (they stalled or failed in it), so the
  /// ranks without a dump are the ones to look at first; false when the given ranks completed all they recorded.
  bool othersStalled = false;
};

/// One process group's finding.
/// One process group's finding: of its collectives, or of its point-to-point ops (verdict.p2p).
struct GroupFinding {
  std::string pg, desc;
  std::vector<int> members;
  bool membersKnown = true;  ///< false when no pg_config names the group (members = ranks seen in it)
  std::vector<int> dumpsMissing;
  Headline verdict;
  std::vector<std::string> notes;  ///< what the matching could not decide
};

struct Report {
  std::vector<std::string> files;
  std::vector<int> ranksGiven;
  std::vector<int> ranksMissing;  ///< members of some group whose dump was not given
  int worldSize = 0;              ///< from the largest group in pg_config, 0 when unknown
  std::string version;            ///< the recorder's format version(s), "2.10"
  Headline headline;
  std::vector<GroupFinding> groups;
  int headlineGroup = -1;          ///< the index in `groups` of the finding the headline is, -1 when none
  std::vector<std::string> notes;  ///< what could not be told, said as such

  Json toJson() const;
  std::vector<std::string> lines() const;
};

/// Matches the dumps (one per rank; a second dump of the same rank replaces nothing and is noted).
Report analyse(const std::vector<Dump>& dumps);

/// Sizes as the recorder's lists print them, "[[1024], [8, 8]]" (fr_trace writes them the same way).
std::string sizesText(const std::vector<std::vector<std::int64_t>>& s);
/// Data types as the reports print them: "[Float, Half]".
std::string dtypesText(const std::vector<std::string>& v);

/// The headline as one sentence (its `summary` when set).
std::string summaryOf(const Headline& h);

/// The frames worth showing of `frames`: the user's, without torch's own and Python's start-up.
std::vector<Frame> userFrames(const std::vector<Frame>& frames, std::size_t max = 6);

}  // namespace pf::doctor::fr

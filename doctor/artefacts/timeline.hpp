// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The artefacts of one job read together (contract):
//   ArtefactSession s(options);
//   Analysis a = analyzeFiles(catalog, inputs.files, kDefaultBlockSize, s.planner());  // recognise + read
//   results.push_back(s.result(a, inputs.skipped));                                      // "doctor.artefacts"
// The planner recognises each input from its first bytes (artefact.hpp), opens its kind's reader and tells the
// scan whether the rules read it too. result() puts every event on one timeline: the diagnoses' failing lines and
// the readers' events, each time converted to UTC where the artefacts allow (clock.hpp): wall-clock times with no
// zone are taken at `localOffsetMin` from UTC; a year missing from PyTorch's or syslog's stamps is taken from the
// nearest full date another artefact printed, else the year-less stamps are ordered among themselves; kernel boot
// offsets come anchored or stay unordered; a failing line without a stamp takes the next stamped line's of its file
// (it was printed no later). The first failure is the earliest failing event that is not a usual consequence of
// another (a watchdog timeout); what was not given is said per kind of artefact.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "artefact.hpp"
#include "pf/result.hpp"
#include "walk.hpp"

namespace pf::doctor {

struct TimelineOptions {
  int localOffsetMin = 0;       ///< the nodes' local time minus UTC, for wall-clock times with no zone
  bool offsetGiven = false;     ///< whether the user said it (else the notes say it was assumed)
  std::size_t maxEvents = 200;  ///< events kept in the result (the first failure is always among them)
};

/// One recognised input.
struct ArtefactInput {
  std::string file, kind, description;
};

class ArtefactSession {
 public:
  explicit ArtefactSession(TimelineOptions o = {}) : options_(o) {}
  /// The planner for analyzeFiles: recognises each input and reads it with its kind's reader.
  InputPlanner planner();
  /// The rank lookup for analyzeFiles: a process's rank as RAS lists it (ArtefactOut::processRanks); the
  /// processes it named are said in the result's placement notes.
  RankLookup rankLookup();
  const std::vector<ArtefactInput>& inputs() const { return inputs_; }
  const std::vector<SkippedInput>& skipped() const { return skipped_; }
  const ArtefactOut& out() const { return out_; }
  /// The "doctor.artefacts" result: inputs, skipped files, the timeline, the first failure, findings, what was
  /// not given and how the clocks were reconciled. `walkSkipped`: what the directory walk left out.
  /// Finishes the kinds that read their files together (their job states) first, once.
  Result result(const Analysis& a, const std::vector<SkippedInput>& walkSkipped);
  /// After result(): the ranks' first failure (`a.ranks`) becomes the timeline's when that is a diagnosis's line,
  /// so the report names one first failure (the timeline reconciles clocks the ranks' comparison cannot read:
  /// syslog's, kernel boot offsets).
  void alignRanks(Analysis& a) const;
  /// After result(): a diagnosis whose rule is `explained_by` another diagnosis's rule, whose failure came first on
  /// the timeline (within kExplainWindowS), is ranked right after that one as its consequence: the kernel's "cable
  /// unplugged" on a node before NCCL's retry error on that link names the cause the NCCL error only implies.
  void alignDiagnoses(Analysis& a) const;

 private:
  TimelineOptions options_;
  std::vector<ArtefactInput> inputs_;
  std::vector<SkippedInput> skipped_;
  ArtefactOut out_;
  std::unique_ptr<ArtefactReader> current_;
  std::map<std::string, std::unique_ptr<ArtefactJobState>> jobStates_;  // by kind key, in the order of keys
  bool jobsFinished_ = false;
  std::optional<TimelineEvent> first_;  // the first failure, set by result()
  std::optional<int64_t> firstUtcUs_;
  std::map<std::string, int64_t> ruleFirstUs_;  // per rule id, the order time of its earliest failing event
  std::set<std::string> rankedByRas_;           // "host:pid" of processes rankLookup() named
};

/// The events in time order (UTC where known; those with no comparable time after, in input order), with
/// `utcUs` filled where known and `notes` saying how the clocks were reconciled. Exposed for tests.
/// `orderUs` is the time the event was ordered by: `utcUs`, or, when no artefact printed a full date, a stamp
/// without a year read as if every such stamp were of one year (they are still ordered among themselves; their
/// `utcUs` stays empty, since the date is not known).
struct OrderedEvent {
  const TimelineEvent* event;
  std::optional<int64_t> utcUs;
  std::optional<int64_t> orderUs;
};
std::vector<OrderedEvent> orderEvents(const std::vector<TimelineEvent>& events, const TimelineOptions& o,
                                      std::vector<std::string>& notes);

}  // namespace pf::doctor

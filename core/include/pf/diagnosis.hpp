// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The typed reading of a result of kind "diagnosis" (preflight doctor): which rule named which cause, how
// sure it is, what to do, and what --confirm found on the node. The log lines themselves are the result's
// evidence ({"what": "log line", "value": text, "source": "file:line"}); params.lines keeps each line's
// host, rank and timestamp for tools that want them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pf/result.hpp"

namespace pf {

struct DiagnosisParams {
  std::string rule_id, category;  ///< category: network-interface, ib-verbs, shm, ... (doctor/rules/)
  double confidence = 0;          ///< the rule's confidence, 0..1
  std::string fix, explanation;
  std::vector<std::string> commands, links;
  std::vector<std::string> hosts;  ///< hosts the matching lines name, sorted
  std::vector<int> ranks;
  std::string confirm;  ///< "confirmed", "refuted", "unknown"; empty without --confirm
  std::string confirm_detail;
  std::string consequence_of;             ///< the rule id of the cause this consequence follows from; "" none
  std::vector<std::string> also_matched;  ///< rules of the same category that read the same lines
};

/// @throws UsageError naming the field when a diagnosis does not fit.
DiagnosisParams diagnosisFromResult(const Result& r);

/// What NCCL did, from its INFO lines (the "doctor.info" result: params, and one row per process).
struct DoctorInfo {
  int64_t input_lines = 0, input_bytes = 0;
  std::vector<std::string> nccl_versions, networks;
  Json transports = Json::object();  ///< transport name -> connections seen ("P2P/IPC": 12)
  std::optional<int> channels;
  std::vector<std::string> flags;  ///< messages of the INFO-level warnings (e.g. GDR disabled)
  /// One object per process (host, versions, interfaces, HCAs): a view of the result's rows, not a copy (a
  /// 4,096-rank log has 4,096 of them), so valid only while the Result it was read from lives.
  std::span<const Json> processes;
};

/// One line a log pointed at: where it is, and the host, rank and time it names.
struct LogLine {
  std::string file, host, timestamp, text;
  /// For a line without a stamp: the stamps of the lines around it in its file ("" when none).
  std::string not_earlier_than, not_later_than;
  int64_t line = 0;
  std::optional<int> rank;
};

/// The per-rank analysis (the "doctor.ranks" result's params).
struct DoctorRanks {
  struct Watchdog {
    std::optional<int> rank;
    std::optional<int64_t> seq, ran_for_ms;
    std::string op;
  };
  std::optional<LogLine> first_failure;
  std::vector<Watchdog> watchdog;
  std::vector<int> waited_on_ranks;
  std::vector<int> ranks_without_logs;  ///< ranks of the world none of whose lines were given
  std::optional<int> world_size;
  std::vector<std::string> notes;
};

DoctorInfo doctorInfoFromResult(const Result& r);
DoctorRanks doctorRanksFromResult(const Result& r);

}  // namespace pf

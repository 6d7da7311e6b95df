// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// One rank's Flight Recorder dump, typed: what PyTorch's recorder writes per rank (pickled with
// TORCH_FR_DUMP_TEMP_FILE / TORCH_NCCL_DEBUG_INFO_TEMP_FILE, or as JSON from _dump_fr_trace_json) and what the
// analysis needs of it. A dump does not hold its own rank: like PyTorch's fr_trace, the rank is the number that
// ends the file name (PREFIX<rank>, optionally followed by .json or .pkl).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pf/result.hpp"

namespace pf::doctor::fr {

/// One Python frame of the call that issued a collective, innermost first (as the recorder stores them).
struct Frame {
  std::string name;
  std::string file;
  std::int64_t line = 0;
};

/// One recorded operation (a collective, a point-to-point send/recv, or a coalesced batch).
struct Entry {
  std::int64_t recordId = 0;
  std::string pgName;  // process_group[0]: the key of pg_config and pg_status
  std::string pgDesc;  // process_group[1]: "default_pg" or the user's description
  std::int64_t collectiveSeqId = 0;
  std::int64_t p2pSeqId = 0;
  bool isP2p = false;
  std::string profilingName;  // "nccl:all_reduce", "gloo:broadcast"
  std::vector<std::vector<std::int64_t>> inputSizes, outputSizes;
  std::vector<std::string> inputDtypes, outputDtypes;
  std::string state;  // "scheduled", "started", "completed"
  bool retired = false;
  std::optional<std::int64_t> timeCreatedNs, timeStartedNs, timeCompletedNs;
  std::int64_t timeoutMs = 0;
  std::vector<Frame> frames;

  /// The operation without its backend prefix ("all_reduce" for "nccl:all_reduce").
  std::string op() const;
  /// The sequence id that orders this entry within its group: p2p_seq_id for p2p, collective_seq_id otherwise.
  std::int64_t seq() const { return isP2p ? p2pSeqId : collectiveSeqId; }
};

/// A process group as one rank's pg_config describes it.
struct GroupConfig {
  std::string key;  // pg_config's key: the group's name
  std::string desc;
  std::vector<int> ranks;  // global ranks, in the group's order
};

/// One rank's progress in one group (pg_status); -1 where the recorder says none.
struct GroupStatus {
  std::string key;
  std::int64_t lastEnqueued = -1, lastStarted = -1, lastCompleted = -1;
};

struct Dump {
  std::string path;
  std::string form;  // "pickle" or "json"
  int rank = -1;
  std::string version;  // the recorder's format version ("2.10")
  std::vector<GroupConfig> groups;
  std::vector<GroupStatus> status;
  std::vector<Entry> entries;

  const GroupConfig* group(std::string_view key) const;
  const GroupStatus* groupStatus(std::string_view key) const;
};

/// True when `head` (the first bytes of a file) looks like a Flight Recorder dump: a pickled dict, or a JSON
/// object whose first kilobytes name the recorder's own keys ("entries", "pg_config" or "version").
bool looksLikeDump(std::string_view head);

/// The rank a dump's file name gives (the digits that end it, before an optional .json/.pkl/.pickle), or -1.
int rankFromFileName(std::string_view path);

/// Parses one dump from its bytes (either form). `name` is used in messages and for the rank.
/// @throws UsageError (PickleError for the pickle form) naming `name` and what is wrong.
Dump parseDump(std::string_view bytes, const std::string& name, int rank);

/// Reads the dump at `path`; its rank comes from its name (rankFromFileName).
/// @throws UsageError for an unreadable file, a name without a rank, or content that is not a dump.
Dump readDump(const std::string& path);

/// The typed model of an already parsed dump document (keys as the recorder writes them).
/// @throws UsageError naming `name` when the document lacks "entries" or a field has the wrong type.
Dump dumpFromJson(const Json& doc, const std::string& name, int rank);

}  // namespace pf::doctor::fr

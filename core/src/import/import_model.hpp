// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What the nccl-tests importers (text and JSON) read, before it becomes a RunReport. Both readers fill an
// ImportedDoc; buildReport() turns it into results once, so the two formats cannot drift apart in how they
// set keys, statuses, metrics and context.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pf/import.hpp"
#include "pf/result.hpp"
#include "pf/sweep_row.hpp"

namespace pf::import {

/// Something the importer could not read or had to guess; `line` is 1-based (0 for JSON, where `text` is
/// the JSON pointer). `unreadable` marks input that was skipped (it makes the result warn).
struct Warning {
  int line = 0;
  std::string text;
  std::string reason;
  bool unreadable = true;
};

/// One "#  Rank N Group G Pid P on HOST device D [BUS] NAME" line.
struct Device {
  int rank = 0;
  std::optional<int> pid;
  std::string host, device, busId, name;
};

/// One table of one collective run (or one cycle of it: -N repeats the sizes inside one table).
struct Run {
  std::string collective;        ///< from "Collective test starting", a *_perf command, or guessed; "" unknown
  std::string collectiveFrom;    ///< where the name came from, for the evidence
  int line = 0;                  ///< first line of the table (header or first row)
  Json header = Json::object();  ///< nThread, nGpus, minBytes... as read from the "# nThread" line
  std::vector<Device> devices;
  std::vector<SweepRow> rows;
  bool perIter = false;  ///< the table had -I columns
  std::optional<int64_t> footerOutOfBounds;
  std::optional<double> footerAvgBusbw;
  bool footerSeen = false;         ///< "Out of bounds values" or "Avg bus bandwidth" was read
  int unreadable = 0;              ///< skipped lines inside this table
  std::vector<Evidence> failures;  ///< "Test NCCL failure ..." lines and the like
  std::vector<Warning> notes;      ///< per-run warnings (unreadable lines included)
  int cycle = 1;                   ///< 1-based cycle within its table
  int cycles = 1;                  ///< how many cycles the table held
};

struct Doc {
  std::string name;    ///< the input's name in messages ("FILE" or "<stdin>")
  std::string format;  ///< "text" or "json"
  std::string tool = "nccl-tests";
  std::string version;             ///< "2.18.3" from "# nccl-tests version", "" when absent
  Json toolInfo = Json::object();  ///< nccl_headers, nccl_library, nccl_version, start/end time ...
  std::vector<std::string> argv;
  std::vector<Run> runs;
  std::vector<Warning> warnings;       ///< every warning, in input order, for context.extra.import
  int infoRanks = 0;                   ///< "nranks N" from NCCL INFO lines: the rank count without a device block
  std::vector<std::string> infoHosts;  ///< hosts named by NCCL INFO line prefixes, first seen first
  std::vector<Evidence> failures;      ///< failure lines seen where no table was open (for the no-table message)
};

/// Collectives nccl-tests has a *_perf binary for.
bool knownCollective(const std::string& name);
/// "all_reduce" from "./build/all_reduce_perf", "all_reduce_perf_mpi", "all_reduce_perf"; "" otherwise.
std::string collectiveFromProgram(const std::string& program);

/// Parses a whole token as a finite number ("188.69", "1.2e+03", "11812"); nullopt otherwise.
std::optional<double> parseNumber(const std::string& token);
/// Parses a whole token as a non-negative integer; nullopt otherwise (or on overflow).
std::optional<uint64_t> parseUnsigned(const std::string& token);

/// Splits one table's rows into -N cycles: a row whose (type, op, root, size) was already seen in the
/// table belongs to the next cycle. Returns one run per cycle (the first keeps `run`'s other fields).
std::vector<Run> splitCycles(Run run);

/// When no name was read, the collective from the rows' shape: op and root, and size against count.
/// Only unambiguous shapes are named (all_reduce, reduce_scatter, reduce, broadcast); "" otherwise.
std::string guessCollective(const Run& run);

/// The RunReport for a document: one sweep result per run, verdict applied, context filled.
/// @throws UsageError naming doc.name when no run has a row.
RunReport buildReport(Doc doc);

}  // namespace pf::import

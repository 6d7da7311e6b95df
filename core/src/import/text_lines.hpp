// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pieces of one line of nccl-tests text output, as people post it: launcher prefixes to strip, the
// header and device lines, the column header and the data rows (nccl-tests' src/util.cu formats, old and new).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "import_model.hpp"

namespace pf::import {

/// Valid UTF-8 without control characters, at most `max` bytes: text copied from the input into a document.
std::string cleanText(std::string_view s, size_t max = 240);

/// The line without whatever launchers and loggers stacked before it, in any order and number: "[1,0]<stdout>:"
/// (Open MPI), "[0]" (MPICH), "(head, rank=0, pid=3808)" (Ray), "12: " (srun --label), "node-3: " (pdsh),
/// ISO, bracketed, bare and syslog timestamps (launcher_prefix.cpp); and without surrounding blanks.
std::string_view stripLauncherPrefix(std::string_view line);

/// Whitespace-separated tokens.
std::vector<std::string> tokens(std::string_view s);

/// An NCCL (or RCCL) log line: "host:pid:tid [dev] NCCL INFO ...", "NCCL version ...".
bool isNcclLogLine(std::string_view s);
/// A line saying that nccl-tests stopped: "Test NCCL failure", "Test CUDA failure", ".. host pid N: Test
/// failure", "NCCL failure file:line" (NCCL 1), "Test timeout".
bool isFailureLine(std::string_view s);

/// Reads "nThread 1 nGpus 1 minBytes 8 maxBytes ... step: 2(factor) warmup iters: 5 iters: 20 ..." (and
/// rccl-tests' "nThreads: 1 nGpus: 4 nRanks: 1 minBytes: 8 ..."), '#' already removed, into params-style keys.
Json parseRunHeader(std::string_view body);
/// Reads "Rank N [Group G] [Pid P] on HOST device D [BUS] NAME" ('#' already removed).
std::optional<Device> parseDeviceLine(std::string_view body);

/// The columns of one table, from its header line or guessed row by row when there is none.
struct Layout {
  bool redop = true, root = true;  ///< the prefix is size count type [redop] [root]
  int halfCols = 4;                ///< time algbw busbw #wrong (+ i_min i_max i_p99 i_cv% with -I)
  bool timestamp = false;          ///< -S adds a date and a time at the end of the row
  bool errorColumn = false;        ///< before nccl-tests 2.13 the 4th column was the max error, not #wrong
};

/// The layout named by a column header ("size count type redop root time algbw busbw #wrong ..."), or
/// nullopt when `words` is not one.
std::optional<Layout> layoutFromHeader(const std::vector<std::string>& words);

/// Parses one data row into its out-of-place and in-place SweepRows (a half printed as N/A gives none).
/// @param known the table's layout, or nullptr to infer it from the row. @param error why it is unreadable.
std::optional<std::vector<SweepRow>> parseRow(std::vector<std::string> words, const Layout* known, std::string& error);

}  // namespace pf::import

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Per-rank analysis: who failed first, who was waiting on whom when the watchdog fired, who never initialised.
//
// "First" is by the time the failing lines were printed (log_time.hpp reads every stamp format; a line without a
// stamp is placed by the stamped lines around it in its own input), else by position in the inputs. Watchdog
// lines (PyTorch ProcessGroupNCCL) give, per rank, the sequence number and op it timed out on; the ranks at the
// lowest sequence number are the furthest behind, and ranks whose logs are given but never reported a timeout
// are the ones the others were waiting on. Ranks of the world with no line in any input are said to be missing,
// never guessed at.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "evidence.hpp"
#include "line_normalizer.hpp"

namespace pf::doctor {

struct WatchdogEntry {
  int rank = -1;
  long seq = -1;
  std::string op;
  long timeoutMs = -1, ranForMs = -1;
  Evidence evidence;
};

struct RankReport {
  bool haveFirst = false;
  Evidence firstFailure;                ///< the earliest error line of any diagnosis
  std::vector<WatchdogEntry> watchdog;  ///< one per rank that timed out
  std::vector<int> waitedOn;            ///< ranks the timed-out ranks were waiting on (see header)
  int worldSize = -1;                   ///< from Init lines or launcher ranks; -1 unknown
  bool worldSizeFromInit = false;       ///< from a communicator's nranks (else the largest rank named + 1)
  std::vector<int> ranksWithoutLogs;    ///< ranks < worldSize none of whose lines is in the inputs
  std::vector<int> neverInitialised;    ///< ranks < nranks with no Init START in any input (of some communicator)
  std::vector<int> initIncomplete;      ///< Init START but no Init COMPLETE (of some communicator), each once
  std::vector<std::string> notes;       ///< sentences a person reads
  Json toJson() const;
};

/// The rank a line speaks for: launcher tag, "[Rank N]" / "[PG x Rank N]" in PyTorch messages, else -1.
int rankOfLine(const NormLine& l);
int rankOfLine(const NormView& l);

/// Parses a PyTorch watchdog line; false when it is not one.
bool parseWatchdog(const NormLine& l, WatchdogEntry& out);

}  // namespace pf::doctor

namespace pf::doctor {
class InfoExtractor;
/// Builds the report from the failing lines (in input order), the watchdog entries and the INFO extractor's
/// communicator progress. `maxRankSeen` is the largest rank any line named (-1 when none).
/// `ranksSeen`: ranks whose own lines are in the inputs (LogScanner::ranksSeen).
RankReport analyzeRanks(const std::vector<Evidence>& failures, std::vector<WatchdogEntry> watchdog,
                        const InfoExtractor& info, int maxRankSeen, const std::set<int>& ranksSeen = {});

/// Whether failing line `a` was printed before `b`: by their stamps or bounds when both have one, a stamped line
/// before one without any, the same input's line order on a tie. Equal lines are not earlier.
bool printedEarlier(const Evidence& a, const Evidence& b);
/// Whether `a` is known to be printed before `b`: both lines have times and a's is earlier, or they are lines of one
/// file in that order. A line with no time is not known to be earlier or later than a timed line of another file.
bool knownPrintedEarlier(const Evidence& a, const Evidence& b);

/// "1, 2, 4-63": ascending ranks as ranges, at most `maxRanges` of them, then ", ... (N ranks)".
std::string rankRanges(const std::vector<int>& ranks, std::size_t maxRanges = 16);
}  // namespace pf::doctor

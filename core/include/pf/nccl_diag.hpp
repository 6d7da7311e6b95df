// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL's own diagnostics (NCCL >= 2.31) as lines: with NCCL_RUN_DIAGNOSTICS=1 (active checks) and
// NCCL_RUN_RAS_DIAGNOSTICS=1 (passive checks) NCCL prints its report on the standard output of the process hosting
// the communicator's rank 0, every line "<host>:<pid> NCCL DIAG ...":
//   node01:15 NCCL DIAG === NCCL Diagnostics ===
//   node01:15 NCCL DIAG [OK]   p2p: all 56 directed GPU P2P edges verified
//   node01:15 NCCL DIAG [INFO] p2p: 4/6 directed GPU P2P edges verified (skipped indirect=3)
//   node01:15 NCCL DIAG NCCL diagnostics completed in 245.3 ms across 8 ranks
// (NCCL's "Diagnostics" and "RAS" troubleshooting pages). One parser for the two readers: `preflight check`'s NCCL
// pair engine (check/nccl_diag.hpp turns the lines into check findings) and `preflight doctor`, which finds the
// lines in a job's output.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pf {

struct NcclDiagLine {
  std::string host;  ///< from the "<host>:<pid>" prefix; empty when the line has none
  std::string tag;   ///< "OK", "INFO", "WARN"...; empty for the header, the completion line and detail lines
  std::string area;  ///< "p2p", "net bw", "GPU inventory", "ECC", "NCCL environment"...: the text before ':'
  std::string text;  ///< the line after "NCCL DIAG " and its tag
};

/// The "NCCL DIAG" line `line` (without its newline), or nullopt for any other line.
std::optional<NcclDiagLine> parseNcclDiagLine(std::string_view line);

/// Every "NCCL DIAG" line of `output` (any other line is skipped).
std::vector<NcclDiagLine> parseNcclDiag(const std::string& output);

/// Whether a tagged line reports a problem (a failed or unverified P2P edge, uncorrected ECC, an inactive link), as
/// opposed to a notice or a difference between ranks.
bool ncclDiagIsProblem(const std::string& area, const std::string& text);

/// What to do about a non-OK line of `area` (the text helps tell a P2P write mismatch from an ACS block).
std::string ncclDiagRemedy(const std::string& area, const std::string& text);

}  // namespace pf

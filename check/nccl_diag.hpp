// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL's own diagnostics (NCCL >= 2.31) as check findings. With NCCL_RUN_DIAGNOSTICS=1 (active: every GPU pair's
// P2P path written and read back, and between nodes a network bandwidth check) and NCCL_RUN_RAS_DIAGNOSTICS=1
// (passive: GPU inventory, CUDA driver version, ECC, NVLink state and NCCL_* consistency across ranks), NCCL
// prints its report on the standard output of the process hosting the communicator's rank 0 (not to
// NCCL_DEBUG_FILE), every line "<host>:<pid> NCCL DIAG ...":
//   node01:15 NCCL DIAG === NCCL Diagnostics ===
//   node01:15 NCCL DIAG [OK]   p2p: all 56 directed GPU P2P edges verified
//   node01:15 NCCL DIAG [INFO] p2p: 4/6 directed GPU P2P edges verified (skipped indirect=3)
//   node01:15 NCCL DIAG NCCL diagnostics completed in 245.3 ms across 8 ranks
// (NCCL's "Diagnostics" and "RAS" troubleshooting pages). Each line tagged other than [OK] becomes a finding on
// the host that printed it, with a remedy for its area; untagged lines after one (the failed GPU pairs NCCL lists)
// are kept as its evidence. The NCCL pair engine switches the active diagnostics on for its communicator when NCCL
// is 2.31 or later (and NCCL_RUN_DIAGNOSTICS is not set), captures rank 0's report and hands its lines over in its
// info ("nccl_diagnostics"); ci/gpu_validate.sh runs NCCL with both kinds on and reads the output with this parser
// (not run on a GPU yet).
#pragma once

#include <string>
#include <vector>

#include "finding.hpp"
#include "pf/nccl_diag.hpp"

namespace pf::check {

using pf::NcclDiagLine;
using pf::ncclDiagRemedy;
using pf::parseNcclDiag;

/// One finding per line tagged other than [OK], on its host (`defaultHost` when the line names none), check
/// "nccl.diag.<area>"; a problem NCCL reports (a failed or unverified P2P edge, uncorrected ECC, an inactive link)
/// fails, a difference between ranks or a notice warns.
std::vector<Finding> ncclDiagFindings(const std::vector<NcclDiagLine>& lines, const std::string& defaultHost);

/// The findings of the report lines a pair engine's info() carries ("nccl_diagnostics": NCCL rank 0's lines);
/// none when it carries none. @param host the node of NCCL rank 0, for lines that name no host
std::vector<Finding> engineDiagnostics(const Json& engineInfo, const std::string& host);

}  // namespace pf::check

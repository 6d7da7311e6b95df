// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL RAS (NCCL >= 2.24) as the `ncclras` client prints it (NCCL's src/ras/client_support.cc; the "RAS" page of
// NCCL's troubleshooting guide): a job summary, then "Errors" and "Warnings" sections whose entries name processes
// and ranks:
//   DEAD
//     2 job processes are considered dead (unreachable via the RAS network)
//     Process 4096 on node node7 managing GPU 3
//   INCOMPLETE
//     Missing communicator data from 1 job process
//     Process 4100 on node node8 managing GPU 0
//   #0-0 (fa93daea854b060b) MISMATCH
//     Communicator ranks have different AllGather operation counts
//     30 ranks have launched up to operation 640
//     2 ranks have launched up to operation 641
//     Rank 12 -- GPU 4 managed by process 323032 on node 10.137.190.124
//   #0-0 (...) ERROR / INCOMPLETE, "Rank 5 reported remote process exited or there was a network error -- GPU ..."
// and MONITOR's event lines (NCCL >= 2.29): "[2026-01-15 10:42:37] PEER_DEAD: Process 12 on node n3 managing GPU 1".
// Each dead, unresponsive or erroring process or rank becomes a finding naming its host (and rank, GPU); a mismatch
// of collective counts names the ranks behind the others.
#pragma once

#include <string>

#include "artefact.hpp"

namespace pf::doctor {

/// Reads an ncclras text report (or MONITOR output) into findings and events.
void readRasText(const std::string& text, const std::string& file, ArtefactOut& out);

}  // namespace pf::doctor

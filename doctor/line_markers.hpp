// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The markers of the lines the timeline reads (artefacts/line_events.cpp): a line holding none of them holds no
// event. Each is at least MultiLiteral's 8 bytes. The scanner's one multi-literal pass over a log finds them with
// the rules' and the extractor's literals (LogScanner::markerLines), so that a log is scanned once, not twice: the
// second pass was about a tenth of `preflight doctor`'s time on a large NCCL log. PyTorch's error lines are found
// by the source files that print the distributed failures (their "[E..." stamp is checked per line): an error line
// from another file is still a rule's failing line when a rule matches it, only not a timeline event of its own.
#pragma once

#include <string>
#include <vector>

namespace pf::doctor {

inline const std::vector<std::string>& lineEventMarkers() {
  static const std::vector<std::string> m = {
      "NVRM: Xid (", "SXid (PC", "srun: error", "slurmstepd", "NCCL DIAG ", "ink down", "ink Down", "LINK DOWN",
      "lost carrier", "Port module", "ProcessGroupNCCL", "ProcessGroupGloo", "TCPStore.cpp", "NCCLUtils.",
      "socket.cpp:", "ProcessGroupWrapp", "FlightRecorder",
      // torchrun's failure summary (artefacts/elastic_summary.hpp): its section heads and field names
      "Root Cause (first", "Failures:", "time      : ", "host      : ", "rank      : ", "exitcode  : "};
  return m;
}

}  // namespace pf::doctor

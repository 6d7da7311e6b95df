// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Events in text logs, line by line: the kinds of line that place a failure in time or on a node, whatever file
// they are in (a Slurm output holds NCCL lines, a rank's log holds NCCL DIAG lines):
//   NVRM: Xid / SXid (core's parseXidLine)                         "xid" on the GPU or NVSwitch it names
//   "<dev>: Link down", "lost carrier", port module events       "ib-link" on the NIC it names
//   srun: error: node12: task 3: Exited with exit code 1          "slurm-task-exit" on that host and rank
//   slurmstepd: error: *** JOB 1234 ON node12 CANCELLED AT ... DUE TO TIME LIMIT ***   "slurm-cancelled"
//   [E304 10:42:37.883 ...] PyTorch / glog error lines            "torch-error"
//   <host>:<pid> NCCL DIAG [WARN] ...                             "diag" + a finding per non-OK line
//   torchrun's failure summary ("Root Cause (first observed failure)")  "elastic-exit" (elastic_summary.hpp)
// NCCL's own WARN lines are not read here: the rules decide which of them are failures (timeline.cpp takes the
// diagnoses' failing lines). A kernel log's boot offsets are converted to wall time when a line of the same log
// carries both ("Dec  2 09:19:05 node7 kernel: [12345.678901] ..."), else left unordered.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "artefact.hpp"
#include "elastic_summary.hpp"
#include "pf/nccl_diag.hpp"

namespace pf::doctor {

class LineEvents {
 public:
  /// `kernelLog`: the file is a node's kernel log (finish() says when no line of it named the node).
  LineEvents(std::string file, bool kernelLog) : file_(std::move(file)), kernelLog_(kernelLog) {}
  /// One line without its newline; `lineNo` 1-based.
  void line(std::string_view raw, std::size_t lineNo);
  void finish(ArtefactOut& out);

 private:
  void add(TimelineEvent e);
  void diag(const NcclDiagLine& d, const TimelineEvent& where);

  std::string file_;
  bool kernelLog_;
  std::vector<TimelineEvent> events_;
  std::vector<ArtefactFinding> findings_;
  std::optional<Stamp> anchorWall_;  // a line with both a wall time and a boot offset
  int64_t anchorBootUs_ = 0;
  std::string anchorWhere_;
  bool inDiagProblem_ = false;  // untagged DIAG lines after a non-OK one are its detail
  std::string lastDiagArea_, lastDiagTag_;
  std::set<std::string> kernelHosts_;  // hosts syslog / journal lines name ("node7 kernel: ...")
  ElasticSummary elastic_;
};

/// The host of a syslog or journal line, "node7 kernel: ..." after its time ("" when `msg` is not one), and in `used`
/// the bytes up to the message.
std::string_view kernelLineHost(std::string_view msg, std::size_t* used = nullptr);

/// A reader for a text log: finds the lines LineEvents wants. `everyLine` reads each line (kernel logs: the wall
/// time anchors); otherwise only lines holding one of the markers are parsed, so a large NCCL log costs little more
/// than the search for a few literals.
std::unique_ptr<ArtefactReader> lineEventsReader(const std::string& file, bool everyLine);

}  // namespace pf::doctor

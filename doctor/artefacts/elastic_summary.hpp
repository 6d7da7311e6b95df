// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// torchrun's (torch elastic's) summary of a failed job, printed by its agent on each node when a worker exits
// with an error (ChildFailedError, torch/distributed/elastic/multiprocessing/errors):
//   Failures:
//   [1]:
//     time      : 2026-04-22_10:42:39          the failure's time: the worker's error file, else when the agent saw
//     host      : node3                         it; local time with no zone (datetime.fromtimestamp)
//     rank      : 5 (local_rank: 1)
//     exitcode  : 1 (pid: 2818)                a negative code is a signal: "-9 (pid: 2817) (SIGKILL)"
//     error_file: ...
//     traceback : ...
//   Root Cause (first observed failure):
//   [0]:
//     ...
// Each failure becomes a timeline event on the exitcode line ("elastic-exit"), with its host, rank and time; the
// ones under "Failures:" are marked consequences, since torch elastic judged another failure to have come first.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "artefact.hpp"

namespace pf::doctor {

class ElasticSummary {
 public:
  /// One line's message (prefixes removed). Returns true when the line belongs to the summary; `out` then holds a
  /// failure when this line completed one (the exitcode line).
  bool line(std::string_view msg, std::size_t lineNo, std::optional<TimelineEvent>& out);

 private:
  enum class Section { kUnknown, kOthers, kRoot };
  Section section_ = Section::kUnknown;
  Stamp time_;
  std::string host_;
  int rank_ = -1, localRank_ = -1;
};

}  // namespace pf::doctor

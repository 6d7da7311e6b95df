// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A finding: one thing the check concluded, about a node, a link between two nodes, or the whole run. Every
// analysis (pairs, the all-reduce, probes, the baseline comparison) produces findings; the verdict turns them
// into results of kind "check", the summary and the exit code.
#pragma once

#include <string>
#include <vector>

#include "pf/result.hpp"

namespace pf::check {

struct Finding {
  std::string check;  ///< what was checked: "pairs.node", "pairs.link", "allreduce.correctness"...
  Status status = Status::kFail;
  std::vector<std::string> hosts;  ///< the node (one) or link (two) it is about; empty = the whole run
  std::string message;             ///< one line: what is wrong, with the measured and expected figures
  std::string remedy;              ///< what the operator should do
  std::vector<Evidence> evidence;  ///< the measurements behind it
};

}  // namespace pf::check

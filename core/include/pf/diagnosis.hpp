// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The typed reading of a result of kind "diagnosis" (preflight doctor): which rule named which cause, how
// sure it is, what to do, and what --confirm found on the node. The log lines themselves are the result's
// evidence ({"what": "log line", "value": text, "source": "file:line"}); params.lines keeps each line's
// host, rank and timestamp for tools that want them.
#pragma once

#include <string>
#include <vector>

#include "pf/result.hpp"

namespace pf {

struct DiagnosisParams {
  std::string rule_id, category;  ///< category: network-interface, ib-verbs, shm, ... (doctor/rules/)
  double confidence = 0;          ///< the rule's confidence, 0..1
  std::string fix, explanation;
  std::vector<std::string> commands, links;
  std::vector<std::string> hosts;  ///< hosts the matching lines name, sorted
  std::vector<int> ranks;
  std::string confirm;  ///< "confirmed", "refuted", "unknown"; empty without --confirm
  std::string confirm_detail;
};

/// @throws UsageError naming the field when a diagnosis does not fit.
DiagnosisParams diagnosisFromResult(const Result& r);

}  // namespace pf

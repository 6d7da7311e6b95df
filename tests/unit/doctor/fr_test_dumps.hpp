// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A made-up rank's dump for the Flight Recorder analysis tests: one process group "0" of `world` ranks.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "flight_recorder/dump.hpp"

namespace pf::doctor::fr::testing {

inline Dump groupDump(int rank, std::vector<Entry> entries, int world) {
  Dump d;
  d.path = "nccl_trace_rank_" + std::to_string(rank);
  d.rank = rank;
  d.version = "2.10";
  GroupConfig g{"0", "default_pg", {}};
  for (int r = 0; r < world; ++r) g.ranks.push_back(r);
  d.groups.push_back(g);
  d.entries = std::move(entries);
  return d;
}

}  // namespace pf::doctor::fr::testing

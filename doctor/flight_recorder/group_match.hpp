// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The per-group matching behind analyse() (analysis.hpp): one group's entries across ranks, lined up by
// sequence id, and the first place they part ways.
#pragma once

#include <string>
#include <vector>

#include "flight_recorder/analysis.hpp"

namespace pf::doctor::fr {

/// The finding of group `pg` (`desc`) with members `members` (sorted), from the dumps given (sorted by rank).
GroupFinding matchGroup(const std::string& pg, const std::string& desc, const std::vector<int>& members,
                        const std::vector<const Dump*>& dumps);

/// A rank that never reached a group's collective because it waits in another group's collective (a call made
/// in the wrong group, or groups entered in different orders) turns that finding into a group mismatch.
void linkAcrossGroups(std::vector<GroupFinding>& groups, const std::vector<const Dump*>& dumps);

/// The culprit's call `e` in `h`: "group 0 (default_pg) seq 2 gloo:broadcast" and its user frames.
void setCulpritCall(Headline& h, const Entry& e);

/// The entry `d` recorded last (the highest record id), nullptr when it recorded none.
const Entry* lastEntry(const Dump& d);

}  // namespace pf::doctor::fr

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A straggler among the collectives of one group that every member completed: the rank that created its entry
// last, by more than the group's own spread of arrivals. Ranks never arrive together (data loading, Python's own
// pauses, clocks of different hosts a few milliseconds apart), and how far apart they arrive differs from job to
// job, so a fixed lateness either flags every collective of a noisy job or misses a real straggler of a tight
// one. The limit is relative: each rank's arrival is taken against the median arrival of its collective, the
// spread is the robust deviation of those offsets over all the group's collectives (1.4826 x the median
// absolute deviation, which a few late arrivals do not move), and a rank is late when it arrives more than
// kStragglerSpreads spreads after the rank before it, and never less than kStragglerFloorMs.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "flight_recorder/analysis.hpp"

namespace pf::doctor::fr {

/// Below this a lateness is never a straggler: clock offsets between hosts that NTP keeps in step and the
/// pauses of a Python process stay under it.
inline constexpr double kStragglerFloorMs = 250.0;
/// How many of the group's spreads of arrivals a rank must arrive after the others to be late.
inline constexpr double kStragglerSpreads = 10.0;

/// One collective every member recorded, with each rank's entry.
struct Arrivals {
  std::int64_t seq = 0;
  std::vector<std::pair<int, const Entry*>> entries;  ///< (rank, entry), every member of the group
};

/// The lateness limit in ms for a group whose collectives are `all` (entries without a creation time skipped).
double stragglerLimitMs(const std::vector<Arrivals>& all);

/// The worst straggler of `all` (kind straggler, lateMs and lateLimitMs set; pg and group fields left to the
/// caller), or nullopt when no rank is late by the limit.
std::optional<Headline> findStraggler(const std::vector<Arrivals>& all);

}  // namespace pf::doctor::fr

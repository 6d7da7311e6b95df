// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The clocks a job's artefacts print, read into one Stamp each:
//   "[2026-04-22 21:34:20]", "2026-04-22T21:34:20.123Z", "+02:00"   NCCL_DEBUG_TIMESTAMP_FORMAT's default, ISO 8601
//                                                                   (Kubernetes, journal short-iso, Slurm), RAS
//   "[E304 10:42:37.883509 ...", "E0304 10:42:37.883509 ..."      PyTorch's c10 / glog: month, day, no year
//   "[Wed Dec  2 09:19:05 2026]"                                   dmesg -T
//   "Dec  2 09:19:05 host kernel: ..."                             syslog / journalctl's short format: no year
//   "[12345.678901] ..."                                           dmesg: seconds since boot
//   "1714000000"                                                   torchelastic's epoch seconds (UTC)
// and the conversion to UTC once the missing pieces are known (timeline.cpp decides them).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "artefact.hpp"

namespace pf::doctor {

/// The stamp that `s` starts with (leading spaces skipped); clock kNone when none. `used`, when given, gets the
/// number of bytes the stamp took (with its closing bracket and one following space).
Stamp parseStamp(std::string_view s, std::size_t* used = nullptr);

/// Epoch seconds as text ("1714000000"), UTC; kNone when `s` is not a plausible epoch (2001 to 2100).
Stamp parseEpochSeconds(std::string_view s);

/// Microseconds since the Unix epoch, UTC. kWall times are taken as `localOffsetMin` minutes ahead of UTC;
/// kWallNoYear needs `year` (0: unknown, nullopt); kBoot needs `bootEpochUs` (nullopt when not given).
std::optional<int64_t> toUtcUs(const Stamp& s, int localOffsetMin, int year = 0,
                               std::optional<int64_t> bootEpochUs = std::nullopt);

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian).
int64_t daysFromCivil(int y, int m, int d);

/// "2026-04-22T21:34:20.123456Z" for microseconds since the epoch.
std::string isoUtc(int64_t us);

}  // namespace pf::doctor

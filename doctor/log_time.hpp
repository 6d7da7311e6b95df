// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The time a log line was printed, from the timestamp the normaliser peeled, whatever format printed it: ISO 8601
// and NCCL_DEBUG_TIMESTAMP_FORMAT's "[%F %T]" ("2026-03-04 10:42:37", "2026-03-04T10:42:37.883Z", Python
// logging's ",883" fractions) and PyTorch's c10 prefix ("E304 10:42:37.883906529": severity, month without a
// leading zero, two-digit day; no year). Text order is wrong across these (and even within c10's, "E1205" sorts
// before "E304"), so lines of different ranks and files are ordered by the fields both stamps have: the year
// when both name one, month and day when both do, then the time of day. Zones are not converted: the logs of
// one job are taken to share a clock (what a job's nodes, in one time zone or all in UTC, print).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace pf::doctor {

struct LogTime {
  int year = -1, month = -1, day = -1;  ///< -1 when the stamp does not say
  std::int64_t nanos = -1;              ///< since midnight; -1 when the stamp has no time of day
};

/// The time in a timestamp as the normaliser keeps it; nullopt when it holds no time of day.
std::optional<LogTime> parseLogTime(std::string_view stamp);

/// <0, 0, >0 as `a` is earlier, the same, later than `b`, comparing the fields both have.
int compareLogTime(const LogTime& a, const LogTime& b);

/// compareLogTime on two timestamps as written; nullopt when either holds no time.
std::optional<int> compareStamps(std::string_view a, std::string_view b);

/// PyTorch's c10 log prefix at the start of `s`: "[E304 10:42:37.883906529 ProcessGroupNCCL.cpp:632] " (severity,
/// month and day, time, an optional thread id, the source location) or, before PyTorch 2.2, "[E
/// ProcessGroupNCCL.cpp:474] ". Returns the length eaten (0 when it is not one); the stamp, from the severity
/// letter through the time, goes to `stamp` (left alone when the prefix has none).
std::size_t c10LogPrefix(std::string_view s, std::string_view& stamp);

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// fmt-based logging to stderr with a level, a subsystem and the rank, e.g.
//   [preflight r3 WARN sweep] message
// Logging never writes to stdout: stdout belongs to tables and `--json -` documents.
#pragma once

#include <fmt/format.h>

#include <string_view>

namespace pf::log {

enum class Level { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3, kOff = 4 };

/// Sets the threshold; messages below it are dropped. Default: kWarn, or PF_LOG_LEVEL=debug|info|warn|error.
void setLevel(Level level);
Level level();
/// Sets the rank shown in the prefix (-1 = none, before the bootstrap knows it).
void setRank(int rank);
/// Writes one line; use the PF_LOG_* macros instead so disabled levels cost no formatting.
void write(Level level, std::string_view subsystem, std::string_view message);

}  // namespace pf::log

#define PF_LOG_AT(lvl, subsys, ...)                                    \
  do {                                                                 \
    if (static_cast<int>(lvl) >= static_cast<int>(::pf::log::level())) \
      ::pf::log::write(lvl, subsys, fmt::format(__VA_ARGS__));         \
  } while (0)
#define PF_LOG_DEBUG(subsys, ...) PF_LOG_AT(::pf::log::Level::kDebug, subsys, __VA_ARGS__)
#define PF_LOG_INFO(subsys, ...) PF_LOG_AT(::pf::log::Level::kInfo, subsys, __VA_ARGS__)
#define PF_LOG_WARN(subsys, ...) PF_LOG_AT(::pf::log::Level::kWarn, subsys, __VA_ARGS__)
#define PF_LOG_ERROR(subsys, ...) PF_LOG_AT(::pf::log::Level::kError, subsys, __VA_ARGS__)

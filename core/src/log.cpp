// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/log.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace pf::log {
namespace {

Level levelFromEnv() {
  const char* v = std::getenv("PF_LOG_LEVEL");
  if (!v) return Level::kWarn;
  if (!std::strcmp(v, "debug")) return Level::kDebug;
  if (!std::strcmp(v, "info")) return Level::kInfo;
  if (!std::strcmp(v, "error")) return Level::kError;
  if (!std::strcmp(v, "off")) return Level::kOff;
  return Level::kWarn;
}

// Function-local statics: initialised on first use, so logging from static registrars is safe.
std::atomic<int>& levelSlot() {
  static std::atomic<int> slot{static_cast<int>(levelFromEnv())};
  return slot;
}
std::atomic<int>& rankSlot() {
  static std::atomic<int> slot{-1};
  return slot;
}

const char* levelName(Level l) {
  switch (l) {
    case Level::kDebug: return "DEBUG";
    case Level::kInfo: return "INFO";
    case Level::kWarn: return "WARN";
    case Level::kError: return "ERROR";
    default: return "";
  }
}

}  // namespace

void setLevel(Level level) { levelSlot() = static_cast<int>(level); }
Level level() { return static_cast<Level>(levelSlot().load()); }
void setRank(int rank) { rankSlot() = rank; }

void write(Level lvl, std::string_view subsystem, std::string_view message) {
  static std::mutex mu;
  std::string line;
  int rank = rankSlot();
  if (rank >= 0)
    line = fmt::format("[preflight r{} {} {}] {}\n", rank, levelName(lvl), subsystem, message);
  else
    line = fmt::format("[preflight {} {}] {}\n", levelName(lvl), subsystem, message);
  std::lock_guard<std::mutex> lock(mu);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace pf::log

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "gpu/xid_window.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

namespace pf::probes {
namespace {

// /proc/uptime: "12345.67 98765.43", the first field is seconds since boot (proc(5)).
std::optional<int64_t> uptimeUs(const SystemView& sys) {
  const auto text = sys.read("/proc/uptime");
  if (!text) return std::nullopt;
  char* end = nullptr;
  const double s = std::strtod(text->c_str(), &end);
  if (end == text->c_str() || !(s >= 0)) return std::nullopt;
  return static_cast<int64_t>(s * 1e6);
}

// /proc/stat: the line "btime SECONDS", the boot in seconds since the epoch (proc(5)).
std::optional<int64_t> bootEpochUs(const SystemView& sys) {
  const auto text = sys.read("/proc/stat");
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("btime ")) {
      char* end = nullptr;
      const long long s = std::strtoll(line.c_str() + 6, &end, 10);
      if (end != line.c_str() + 6 && s > 0) return s * 1000000;
    }
  return std::nullopt;
}

}  // namespace

XidWindow::XidWindow(const SystemView& sys, const std::optional<KernelLogSince>& since) {
  if (!since || (!since->epochUs && !since->lastUs)) return;  // "boot": every message, as without the option
  since_ = since;
  const auto up = uptimeUs(sys);
  const auto boot = bootEpochUs(sys);
  // Now: the clock on a live node; a captured tree's now is its capture, its boot plus its uptime then.
  std::optional<int64_t> now;
  if (sys.isLive())
    now = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
  else if (up && boot)
    now = *boot + *up;
  if (since->epochUs) {
    cutoffEpochUs_ = since->epochUs;
    if (boot) cutoffBootUs_ = *since->epochUs - *boot;
    if (!boot) missing_ = "/proc/stat has no btime";
  } else {
    if (up) cutoffBootUs_ = *up - *since->lastUs;
    if (now) cutoffEpochUs_ = *now - *since->lastUs;
    if (!up) missing_ = "/proc/uptime is not readable";
  }
}

XidWindow::Place XidWindow::place(const KernelLogTime& t) const {
  if (!since_) return Place::kIn;
  if (t.bootUs && cutoffBootUs_) return *t.bootUs >= *cutoffBootUs_ ? Place::kIn : Place::kBefore;
  if (t.epochUs && cutoffEpochUs_) return *t.epochUs >= *cutoffEpochUs_ ? Place::kIn : Place::kBefore;
  return Place::kUnplaced;
}

std::string XidWindow::describe() const {
  if (!since_) return "since boot";
  std::string when = cutoffEpochUs_  ? "since " + isoUtcSeconds(*cutoffEpochUs_)
                     : cutoffBootUs_ ? fmt::format("since {:.0f} s after boot", *cutoffBootUs_ / 1e6)
                                     : std::string("since an unknown time");
  return fmt::format("{} (--xid-since {})", when, since_->text);
}

}  // namespace pf::probes

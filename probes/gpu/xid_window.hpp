// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--xid-since`: which kernel log messages the gpu_xid probe looks at, so that an Xid from an earlier job does not
// fail the node in every prolog after it. The kernel stamps its messages with the time since boot; the node's own
// clocks turn a time or a span before now into that: /proc/uptime (seconds since boot, now) and /proc/stat's btime
// (the boot, in seconds since the epoch), read through the SystemView, so a captured tree is judged as of its
// capture. A line stamped with a zoned time (dmesg --time-format iso) is compared directly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pf/kernel_log.hpp"
#include "system_view.hpp"

namespace pf::probes {

class XidWindow {
 public:
  enum class Place { kIn, kBefore, kUnplaced };

  /// @param since none: every message since boot (the window is not active)
  XidWindow(const SystemView& sys, const std::optional<KernelLogSince>& since);

  bool active() const { return since_.has_value(); }
  /// Where a message falls: in the window, before it, or unplaced (no time, or a clock the node does not give).
  Place place(const KernelLogTime& t) const;
  /// "since 2026-12-02T10:00:00Z (--xid-since 30m)", or the boot offset where the node gives no epoch.
  std::string describe() const;
  /// What the window could not be placed with, for the evidence ("/proc/uptime unreadable"); empty when placed.
  std::string missing() const { return missing_; }

 private:
  std::optional<KernelLogSince> since_;
  std::optional<int64_t> cutoffBootUs_, cutoffEpochUs_;
  std::string missing_;
};

}  // namespace pf::probes

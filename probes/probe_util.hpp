// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Small helpers shared by probes: text splitting, number parsing of sysfs values, and the node name a
// result is about (the tree's own hostname on a captured tree, so fixtures read as the host they came from).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pf/result.hpp"
#include "system_view.hpp"

namespace pf::probes {

/// Splits on any of `seps`, dropping empty pieces ("a,,b" -> {"a","b"}).
std::vector<std::string> splitList(std::string_view s, std::string_view seps = ",");
/// Trims spaces, tabs and newlines at both ends.
std::string trim(std::string_view s);
/// ASCII upper case ("nvl" -> "NVL"; other bytes unchanged).
std::string upper(std::string s);
/// A whole-string decimal integer (sysfs values such as "1500"); nullopt otherwise.
std::optional<long long> parseInt(std::string_view s);
/// A file's text, trimmed; empty when it is missing or unreadable (most sysfs attributes read this way).
std::string readText(const SystemView& sys, std::string_view abs);
/// A sysfs file holding one integer; nullopt when missing or not a number.
std::optional<long long> readInt(const SystemView& sys, std::string_view abs);
/// The node a result is about: gethostname() on a live node, /proc/sys/kernel/hostname (or /etc/hostname)
/// of a captured tree, else "unknown".
std::string nodeName(const SystemView& sys);

/// Collects a probe's problems and turns them into the result's status, message and remedy: the status is
/// the worst added; the message lists the problems of that severity first; remedies are joined in order.
class Findings {
 public:
  void add(Status s, std::string message, std::string remedy = "");
  bool any() const { return !items_.empty(); }
  Status worstStatus() const;
  /// Sets r.status, r.message (or `passMessage` when nothing was added) and r.remedy.
  void apply(Result& r, const std::string& passMessage) const;

 private:
  struct Item {
    Status status;
    std::string message, remedy;
  };
  std::vector<Item> items_;
};

}  // namespace pf::probes

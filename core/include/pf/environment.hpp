// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A snapshot of environment variables. Code that decides from the environment (launcher detection, NCCL
// variable checks) reads an Environment, never getenv(), so tests can hand it a captured set.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace pf {

class Environment {
 public:
  Environment() = default;
  explicit Environment(std::map<std::string, std::string> vars) : vars_(std::move(vars)) {}

  /// The current process's environment.
  static Environment fromProcess();
  /// KEY=VALUE lines (blank lines and # comments skipped, an optional `export ` prefix allowed).
  /// @throws UsageError naming the file and line for a line that is not KEY=VALUE.
  static Environment fromFile(const std::string& path);

  std::optional<std::string> get(const std::string& key) const;
  std::string getOr(const std::string& key, const std::string& fallback) const;
  /// Integer value; nullopt when unset or not an integer.
  std::optional<long> getInt(const std::string& key) const;
  bool has(const std::string& key) const { return vars_.count(key) != 0; }
  void set(const std::string& key, const std::string& value) { vars_[key] = value; }
  const std::map<std::string, std::string>& all() const { return vars_; }

 private:
  std::map<std::string, std::string> vars_;
};

/// This host's name (gethostname), or "unknown".
std::string hostName();

}  // namespace pf

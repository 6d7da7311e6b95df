// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nccl/nccl_conf.hpp"

#include <fmt/format.h>

#include <sstream>

#include "probe_util.hpp"

namespace pf::probes {
namespace {

/// Applies one file the way NCCL's setEnvFile does: NAME=VALUE per line, the name is everything before the
/// first '=', nothing is trimmed, and an existing value is never overwritten.
void applyFile(const SystemView& sys, const std::string& file, NcclSettings& out) {
  auto text = sys.read(file);
  if (!text) return;
  out.filesRead.push_back(file);
  std::istringstream in(*text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    auto eq = line.find('=');
    if (eq == std::string::npos) {
      out.problems.push_back({file, n, line, "no '=' in the line: NCCL ignores it"});
      continue;
    }
    std::string name = line.substr(0, eq), value = line.substr(eq + 1);
    if (name != trim(name) || name.find_first_of(" \t") != std::string::npos) {
      out.problems.push_back({file, n, line,
                              fmt::format("spaces around the name: NCCL sets a variable literally named '{}', "
                                          "which nothing reads; write {}={}",
                                          name, trim(name), trim(value))});
      continue;
    }
    if (value != trim(value))
      out.problems.push_back(
          {file, n, line, fmt::format("leading or trailing spaces in the value: NCCL keeps them ('{}')", value)});
    if (out.values.count(name)) continue;  // setenv(..., 0): the environment or an earlier file wins
    out.values[name] = {name, value, file};
  }
}

}  // namespace

std::optional<std::string> NcclSettings::get(const std::string& name) const {
  auto it = values.find(name);
  if (it == values.end()) return std::nullopt;
  return it->second.value;
}

std::string NcclSettings::describe(const std::string& name) const {
  auto it = values.find(name);
  if (it == values.end()) return name + " (unset)";
  if (it->second.source == "environment") return fmt::format("{}={}", name, it->second.value);
  return fmt::format("{}={} (from {})", name, it->second.value, it->second.source);
}

NcclSettings readNcclSettings(const SystemView& sys) {
  NcclSettings s;
  for (const auto& [k, v] : sys.env().all())
    if (k.rfind("NCCL_", 0) == 0) s.values[k] = {k, v, "environment"};
  // NCCL_CONF_FILE (2.23+) replaces ~/.nccl.conf; an empty value counts as unset, as in NCCL.
  auto confFile = sys.env().get("NCCL_CONF_FILE");
  if (confFile && !confFile->empty()) {
    applyFile(sys, *confFile, s);
  } else if (auto home = sys.env().get("HOME"); home && !home->empty()) {
    applyFile(sys, *home + "/.nccl.conf", s);
  }
  applyFile(sys, "/etc/nccl.conf", s);
  return s;
}

}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/environment.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <charconv>
#include <sstream>

#include "pf/error.hpp"
#include "pf/report_io.hpp"

extern char** environ;

namespace pf {

Environment Environment::fromProcess() {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e && *e; ++e) {
    std::string kv(*e);
    auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    vars[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return Environment(std::move(vars));
}

Environment Environment::fromFile(const std::string& path) {
  std::istringstream in(readTextFile(path));
  std::map<std::string, std::string> vars;
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    line = line.substr(start);
    if (line.rfind("export ", 0) == 0) line = line.substr(7);
    auto eq = line.find('=');
    if (eq == 0 || eq == std::string::npos)
      throw UsageError(fmt::format("{}:{}: expected KEY=VALUE, got '{}'", path, lineNo, line));
    std::string value = line.substr(eq + 1);
    // Accept shell-style quoting of the whole value, as `env` dumps edited by hand often have.
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    vars[line.substr(0, eq)] = value;
  }
  return Environment(std::move(vars));
}

std::optional<std::string> Environment::get(const std::string& key) const {
  auto it = vars_.find(key);
  if (it == vars_.end()) return std::nullopt;
  return it->second;
}

std::string Environment::getOr(const std::string& key, const std::string& fallback) const {
  auto v = get(key);
  return v ? *v : fallback;
}

std::optional<long> Environment::getInt(const std::string& key) const {
  auto v = get(key);
  if (!v || v->empty()) return std::nullopt;
  long n = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
  if (ec != std::errc() || end != v->data() + v->size()) return std::nullopt;
  return n;
}

std::string hostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

}  // namespace pf

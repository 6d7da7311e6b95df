// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "toml_file.hpp"

#include <cpptoml.h>
#include <fmt/format.h>

#include <sstream>

#include "pf/error.hpp"

namespace pf::check {
namespace {

void flatten(const cpptoml::table& table, const std::string& prefix, const std::string& origin, TomlTable& out) {
  for (const auto& [name, node] : table) {
    const std::string key = prefix.empty() ? name : prefix + "." + name;
    if (node->is_table()) {
      flatten(*node->as_table(), key, origin, out);
    } else if (auto i = node->as<int64_t>()) {
      out[key] = static_cast<double>(i->get());
    } else if (auto d = node->as<double>()) {
      out[key] = d->get();
    } else if (auto b = node->as<bool>()) {
      out[key] = b->get();
    } else if (auto s = node->as<std::string>()) {
      out[key] = s->get();
    } else {
      throw UsageError(
          fmt::format("{}: '{}' is an array, a table array or a date; thresholds are numbers "
                      "(see docs/check.md)",
                      origin, key));
    }
  }
}

}  // namespace

TomlTable parseToml(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  std::shared_ptr<cpptoml::table> root;
  try {
    root = cpptoml::parser(in).parse();
  } catch (const cpptoml::parse_exception& e) {
    throw UsageError(fmt::format("{}: not valid TOML: {}", origin, e.what()));
  }
  TomlTable out;
  flatten(*root, "", origin, out);
  return out;
}

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The threshold file is TOML (docs/check.md, "Threshold file"), read with cpptoml (Debian: libcpptoml-dev).
// This wrapper flattens it into "table.key" -> value and turns every parse error into a UsageError that names
// the file and line, so a bad file never half-loads.
#pragma once

#include <map>
#include <string>
#include <variant>

namespace pf::check {

using TomlValue = std::variant<double, bool, std::string>;

/// Keys are "table.key" ("pairs.bandwidth_fail_fraction"); keys before any table header have no prefix.
using TomlTable = std::map<std::string, TomlValue>;

/// Parses `text` as TOML. Integers become doubles. Arrays, arrays of tables and dates are rejected (no
/// threshold takes one). @param origin the file name, used in error messages
/// @throws UsageError "FILE: ... at line N" saying what is wrong.
TomlTable parseToml(const std::string& text, const std::string& origin);

}  // namespace pf::check

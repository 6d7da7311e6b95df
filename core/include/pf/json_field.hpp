// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reading one optional field of a result document into a typed summary: a missing or null field keeps the
// default (documents of older versions, results that do not measure it); a field of the wrong type is bad
// input, a UsageError naming the field, never a bare nlohmann exception. And the way back: an unmeasured value
// is written as null.
#pragma once

#include <fmt/format.h>

#include <optional>
#include <string>

#include "pf/error.hpp"
#include "pf/result.hpp"

namespace pf {

/// @param what the kind of record, for the message ("sweep", "scale", "diagnosis")
template <typename T>
void readField(const Json& j, const char* name, T& into, const char* what) {
  if (!j.is_object() || !j.contains(name) || j.at(name).is_null()) return;
  try {
    into = j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("result document: {} field '{}' has the wrong type", what, name));
  }
}

/// The value, or null when it was not measured (or not known).
template <typename T>
Json jsonOrNull(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

/// The text, or null when it is empty: a document says "not known" as null, never as "".
inline Json jsonOrNull(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

}  // namespace pf

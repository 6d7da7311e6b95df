// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reading one optional field of a result document into a typed summary: a missing or null field keeps the
// default (documents of older versions, results that do not measure it); a field of the wrong type is bad
// input, a UsageError naming the field, never a bare nlohmann exception. And the way back: an unmeasured value
// is written as null.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "pf/error.hpp"
#include "pf/result.hpp"

namespace pf {

namespace detail {
template <typename T>
struct Unwrapped {
  using type = T;
};
template <typename T>
struct Unwrapped<std::optional<T>> {
  using type = T;
};
}  // namespace detail

/// `v` as a T when it is one exactly: a number for a number type (never a boolean), an integer within T's
/// range for an integer type (2.5, 1e308 and true are refused, not truncated); else nullopt and `why` says why.
template <typename T>
std::optional<T> exactValue(const Json& v, std::string& why) {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    if (!v.is_number()) {
      why = fmt::format("{} is not a number", v.is_string() ? "a string" : v.type_name());
      return std::nullopt;
    }
    if constexpr (std::is_integral_v<T>) {
      using L = std::numeric_limits<T>;
      bool fits = false;
      if (v.is_number_unsigned())
        fits = v.get<std::uint64_t>() <= static_cast<std::uint64_t>(L::max());
      else if (v.is_number_integer())
        fits = v.get<std::int64_t>() >= static_cast<std::int64_t>(L::min()) &&
               (L::max() > static_cast<T>(std::numeric_limits<std::int64_t>::max()) ||
                v.get<std::int64_t>() <= static_cast<std::int64_t>(L::max()));
      else {
        const double d = v.get<double>();
        if (std::isfinite(d) && d != std::floor(d)) {
          why = fmt::format("{} is not a whole number", d);
          return std::nullopt;
        }
        fits = std::isfinite(d) && d >= static_cast<double>(L::min()) && d <= static_cast<double>(L::max());
      }
      if (!fits) {
        why = fmt::format("{} is out of range [{}, {}]", v.dump().substr(0, 40), L::min(), L::max());
        return std::nullopt;
      }
      return v.is_number_float() ? static_cast<T>(v.get<double>()) : v.get<T>();
    } else {
      // No finiteness check: a parsed file holds none (the parser refuses them), and an in-memory row may
      // carry inf on purpose (a robust z over a zero spread).
      return static_cast<T>(v.get<double>());
    }
  } else {
    try {
      return v.get<T>();
    } catch (const nlohmann::json::exception&) {
      why = fmt::format("{} is not the expected type", v.type_name());
      return std::nullopt;
    }
  }
}

/// The field `name` of the object `j`, exactly a T (exactValue). @throws UsageError "NAME: missing" or
/// "NAME: why"; the reader of the document puts the path of `j` and the file before it.
template <typename T>
T requiredField(const Json& j, const char* name) {
  if (!j.is_object() || !j.contains(name)) throw UsageError(fmt::format("{}: missing", name));
  std::string why;
  if (auto v = exactValue<T>(j.at(name), why)) return *v;
  throw UsageError(fmt::format("{}: {}", name, why));
}

/// As requiredField, for a field that may be absent or null (then `out` is left alone).
template <typename T>
void optionalExact(const Json& j, const char* name, std::optional<T>& out) {
  if (j.is_object() && j.contains(name) && !j.at(name).is_null()) out = requiredField<T>(j, name);
}

/// @param what the kind of record, for the message ("sweep", "scale", "diagnosis")
template <typename T>
void readField(const Json& j, const char* name, T& into, const char* what) {
  if (!j.is_object() || !j.contains(name) || j.at(name).is_null()) return;
  std::string why;
  if (auto v = exactValue<typename detail::Unwrapped<T>::type>(j.at(name), why)) {
    into = *v;
    return;
  }
  throw UsageError(fmt::format("result document: {} field '{}' has the wrong type ({})", what, name, why));
}

/// The value, or null when it was not measured (or not known).
template <typename T>
Json jsonOrNull(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

/// The text, or null when it is empty: a document says "not known" as null, never as "".
inline Json jsonOrNull(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

}  // namespace pf

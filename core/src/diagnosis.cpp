// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/diagnosis.hpp"

#include <fmt/format.h>

#include "pf/error.hpp"

namespace pf {
namespace {

template <typename T>
void read(const Json& j, const char* name, T& into) {
  if (!j.is_object() || !j.contains(name) || j.at(name).is_null()) return;
  try {
    into = j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw UsageError(fmt::format("result document: diagnosis field '{}' has the wrong type", name));
  }
}

}  // namespace

DiagnosisParams diagnosisFromResult(const Result& r) {
  DiagnosisParams d;
  const Json& p = r.params;
  read(p, "rule_id", d.rule_id);
  read(p, "category", d.category);
  read(p, "confidence", d.confidence);
  read(p, "fix", d.fix);
  read(p, "explanation", d.explanation);
  read(p, "commands", d.commands);
  read(p, "links", d.links);
  read(p, "hosts", d.hosts);
  read(p, "ranks", d.ranks);
  read(p, "confirm", d.confirm);
  read(p, "confirm_detail", d.confirm_detail);
  return d;
}

}  // namespace pf

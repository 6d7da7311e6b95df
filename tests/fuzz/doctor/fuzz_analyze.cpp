// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: the whole pipeline (multi-literal scan, rule evaluation, INFO extraction, per-rank
// analysis, JSON and text output) over arbitrary input. Seeds: tests/unit/doctor/data.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis.hpp"
#include "report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pf::doctor::Catalog catalog = pf::doctor::builtinCatalog();
  std::vector<pf::doctor::Source> src{{"fuzz.log", std::string(reinterpret_cast<const char*>(data), size)}};
  pf::doctor::Analysis a = pf::doctor::analyze(catalog, src);
  for (const auto& d : a.diagnoses)
    for (const auto& e : d.evidence)
      if (e.line == 0 || e.file != "fuzz.log") __builtin_trap();
  auto results = pf::doctor::toResults(a);
  // Strict dump: every string taken from the log must have been made valid UTF-8.
  for (const auto& r : results) (void)pf::toJson(r).dump();
  (void)pf::doctor::toResults(a);
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: the whole pipeline (multi-literal scan, rule evaluation, INFO extraction, per-rank
// analysis, JSON and text output) over arbitrary input, and the same input streamed in tiny blocks. Seeds:
// tests/unit/doctor/data.
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
  // Streaming in small blocks (lines split across them) must give the same diagnoses and evidence lines.
  if (size > 0) {
    pf::doctor::Analysis b = pf::doctor::analyze(catalog, src, 1 + data[0] % 61);
    if (b.diagnoses.size() != a.diagnoses.size() || b.lines != a.lines) __builtin_trap();
    for (std::size_t i = 0; i < a.diagnoses.size(); ++i) {
      const auto &x = a.diagnoses[i], &y = b.diagnoses[i];
      // By id: a similar-reports diagnosis's rule is made for its analysis (Analysis::ownRules), not shared.
      if (x.rule->id != y.rule->id || x.rule->confidence != y.rule->confidence || x.hits != y.hits ||
          x.evidence.size() != y.evidence.size())
        __builtin_trap();
      for (std::size_t k = 0; k < x.evidence.size(); ++k)
        if (x.evidence[k].line != y.evidence[k].line || x.evidence[k].text != y.evidence[k].text) __builtin_trap();
    }
  }
  auto results = pf::doctor::toResults(a);
  // Strict dump: every string taken from the log must have been made valid UTF-8.
  for (const auto& r : results) (void)pf::toJson(r).dump();
  (void)pf::doctor::toResults(a);
  return 0;
}

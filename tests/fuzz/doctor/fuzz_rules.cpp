// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: the rules loader must reject malformed catalogs with a UsageError, never crash, and the
// rules it accepts must compile into a matcher.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "info_extractor.hpp"
#include "matcher.hpp"
#include "pf/error.hpp"
#include "rule_catalog.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view s(reinterpret_cast<const char*>(data), size);
  try {
    pf::doctor::Catalog c{pf::doctor::parseRulesFile("shm.json", s), nullptr};  // no report memory: rules alone
    pf::doctor::Matcher m(c, pf::doctor::InfoExtractor::taps());
    pf::doctor::ScanResult r;
    m.scan(s, r);
  } catch (const pf::UsageError&) {
  }
  return 0;
}

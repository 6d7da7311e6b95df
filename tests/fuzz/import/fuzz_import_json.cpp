// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: nccl-tests -J JSON import over arbitrary bytes (parsed JSON, or not). It must return a
// document or throw pf::UsageError. Seeds: tests/fixtures/nccl-tests (the JSON one and the text ones).
#include <cstddef>
#include <cstdint>
#include <string>

#include "pf/error.hpp"
#include "pf/import.hpp"
#include "pf/input_limits.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  pf::Json j;
  try {
    j = pf::parseJsonText(text, "fuzz.json", "");  // with the nesting limit, as loadDocument reads it
  } catch (const pf::UsageError&) {
    return 0;
  }
  try {
    pf::RunReport r = pf::fromNcclTestsJson(j, "fuzz.json");
    pf::Json out = pf::toJson(r);
    (void)pf::reportFromJson(pf::Json::parse(out.dump()));
    if (r.results.size() == 1) (void)pf::fromNcclTestsJson(pf::toNcclTestsJson(r), "again.json");
  } catch (const pf::UsageError&) {
  }
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: the nccl-tests text importer over arbitrary bytes. It must return a document that
// serialises and reads back, or throw pf::UsageError; anything else (a crash, another exception, a hang) is a
// bug. Seeds: tests/fixtures/nccl-tests.
#include <cstddef>
#include <cstdint>
#include <string>

#include "pf/error.hpp"
#include "pf/import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    pf::RunReport r = pf::importNcclTestsText(text, "fuzz.txt");
    pf::Json j = pf::toJson(r);
    (void)pf::reportFromJson(pf::Json::parse(j.dump()));  // strict dump: every string is valid UTF-8
    if (r.results.size() == 1) (void)pf::toNcclTestsJson(r);
  } catch (const pf::UsageError&) {
  }
  return 0;
}

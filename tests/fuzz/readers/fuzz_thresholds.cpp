// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: the threshold file (TOML through cpptoml, then the key/range checks) over arbitrary
// bytes. It must return Thresholds or throw pf::UsageError; anything else (a crash, cpptoml's own
// parse_exception escaping, another exception, a hang) is a bug. Seeds: corpus_thresholds here.
#include <cstddef>
#include <cstdint>
#include <string>

#include "pf/error.hpp"
#include "thresholds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    pf::check::Thresholds t = pf::check::thresholdsFromText(text, "fuzz.toml");
    (void)t.toJson().dump();
  } catch (const pf::UsageError&) {
  }
  return 0;
}

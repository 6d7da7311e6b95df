// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: the result-document reader (readReport = parseJsonText + reportFromDocument/reportFromJson)
// over arbitrary bytes. It must return a RunReport or throw pf::UsageError, and a report it returns must
// serialise and read back; anything else (a crash, another exception, a hang) is a bug.
// Seeds: tests/golden/documents (corpus_report here holds copies and regression inputs).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input_file.hpp"
#include "pf/error.hpp"
#include "pf/input_limits.hpp"
#include "pf/report_io.hpp"
#include "pf/result.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  pf::Json j;
  try {
    j = pf::parseJsonText(text, "fuzz.json", "");  // the nesting limit first, as every reader does
  } catch (const pf::UsageError&) {
    j = pf::Json::value_t::discarded;
  }
  if (!j.is_discarded()) {
    try {
      pf::RunReport r = pf::reportFromDocument(j, "fuzz.json");
      // What the reader accepted must write out (strict UTF-8 dump) and read back.
      (void)pf::reportFromJson(pf::Json::parse(pf::toJson(r).dump()));
    } catch (const pf::UsageError&) {
    }
  }
  // The file entry point as the CLI calls it (invalid JSON included); kept to short inputs for speed.
  if (size < 4096) {
    try {
      (void)pf::readReport(pf::fuzz::writeInput("report.json", data, size).string());
    } catch (const pf::UsageError&) {
    }
  }
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight report FILE` reads any of: a Preflight document, nccl-tests -J JSON, nccl-tests/rccl-tests text.
// The first non-blank character decides: '{' is JSON (then `schema_version` tells ours from nccl-tests'),
// anything else is text. No extension is trusted: people save outputs as .log, .txt, .out or nothing.
#include <fmt/format.h>

#include "pf/error.hpp"
#include "pf/import.hpp"
#include "pf/input_limits.hpp"
#include "pf/report_io.hpp"

namespace pf {

RunReport loadDocument(const std::string& path) {
  const std::string text = readTextFile(path);
  const std::string name = path == "-" ? "<stdin>" : path;
  size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // a UTF-8 byte-order mark
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')) ++i;
  if (i < text.size() && text[i] == '{') {
    const Json j = parseJsonText(std::string_view(text).substr(i), name,
                                 "pass a document written by preflight --json, nccl-tests -J output, or nccl-tests' "
                                 "text output");
    if (j.is_object() && j.contains("schema_version")) return reportFromDocument(j, name);
    if (isNcclTestsJson(j)) return fromNcclTestsJson(j, name);
    throw UsageError(
        fmt::format("'{}' is JSON but neither a Preflight result document (no schema_version) nor nccl-tests -J output "
                    "(version, config, results)",
                    name));
  }
  return importNcclTestsText(text, name);
}

}  // namespace pf

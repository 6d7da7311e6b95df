// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "document_input.hpp"

#include <fmt/format.h>

#include <iostream>

#include "pf/import.hpp"

namespace pf::cli {
namespace {

// The importer's skipped lines, one per line on stderr, in the compiler-style form editors jump to.
void printImportWarnings(const RunReport& report) {
  // A Preflight document carries its import notes as written; a hand-edited one may not fit this shape.
  const Json& extra = report.context.extra;
  if (!extra.is_object() || !extra.contains("import") || !extra.at("import").is_object()) return;
  const Json& warnings = extra.at("import").value("warnings", Json::array());
  if (!warnings.is_array() || !extra.at("import").value("file", Json("")).is_string()) return;
  for (const Json& w : warnings)
    if (!w.is_object() || !w.value("line", Json(0)).is_number_integer() || !w.value("text", Json("")).is_string() ||
        !w.value("reason", Json("")).is_string())
      return;
  const Json& imp = report.context.extra.value("import", Json::object());
  const std::string file = imp.value("file", std::string());
  for (const Json& w : imp.value("warnings", Json::array())) {
    const int line = w.value("line", 0);
    const std::string text = w.value("text", std::string());
    const bool pointer = line == 0 && !text.empty() && text.front() == '/';  // JSON input: where is a pointer
    std::string at = line > 0 ? fmt::format("{}:{}", file, line) : pointer ? file + "#" + text : file;
    std::cerr << fmt::format("{}: {}: {}{}\n", at, text.empty() ? "note" : "skipped", w.value("reason", std::string()),
                             text.empty() || pointer ? "" : fmt::format(" ({})", text));
  }
}

}  // namespace

RunReport readInputDocument(const std::string& path) {
  RunReport report = loadDocument(path);
  printImportWarnings(report);
  return report;
}

}  // namespace pf::cli

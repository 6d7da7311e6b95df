// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "document_loader.hpp"

#include <filesystem>

#include "pf/report_io.hpp"

namespace pf::gui {

Document loadDocument(const std::string& path) {
  Document doc;
  doc.path = path;
  doc.name = std::filesystem::path(path).stem().string();
  doc.report = readReport(path);
  doc.charts = reports::charts::chartsFor(doc.report);
  return doc;
}

}  // namespace pf::gui

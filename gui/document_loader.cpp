// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "document_loader.hpp"

#include <filesystem>

#include "pf/import.hpp"

namespace pf::gui {

Document loadDocument(const std::string& path) {
  Document doc;
  doc.path = path;
  doc.name = std::filesystem::path(path).stem().string();
  doc.report = pf::loadDocument(path);  // Preflight documents, and nccl-tests/rccl-tests output imported
  doc.charts = reports::charts::chartsFor(doc.report);
  return doc;
}

}  // namespace pf::gui

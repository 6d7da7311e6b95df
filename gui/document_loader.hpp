// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The one place the viewer reads a file. Everything it shows comes from the Document made here: core's
// reader gives the report, the reports' chart model gives the charts. When core learns to read other tools'
// output (pf::loadDocument in pf/import.hpp), only loadDocument() below changes.
#pragma once

#include <string>

#include "charts/chart_model.hpp"
#include "pf/result.hpp"

namespace pf::gui {

struct Document {
  std::string path;  ///< as the user gave it; the key of the document in a DocumentSet
  std::string name;  ///< the file's stem: names series when files are overlaid, and exported files
  RunReport report;
  reports::charts::ChartSet charts;  ///< chartsFor(report), computed once per load
};

/// Reads `path` and derives its charts.
/// @throws UsageError (or another std::exception) naming the path when the file cannot be read or does not fit.
Document loadDocument(const std::string& path);

}  // namespace pf::gui

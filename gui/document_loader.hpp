// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The one place the viewer reads a file. Everything it shows comes from the Document made here: core's
// reader gives the report (a Preflight document, or nccl-tests/rccl-tests output imported by
// pf::loadDocument), the reports' chart model gives the charts.
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

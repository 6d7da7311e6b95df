// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Several documents on one set of charts: charts with the same id (the same collective, type and op, or the
// same scaling chart) become one chart, each series remembering its file (ViewChart::run), so the chart keeps
// the files apart: names "<file>: <series>", a colour per file, stacked bars per file. The series and their
// points are the chart model's, unchanged; only their grouping is the viewer's.
#pragma once

#include <string>
#include <vector>

#include "charts/chart_view.hpp"
#include "document_loader.hpp"

namespace pf::gui {

/// The files' names as legends show them: the document names, made unique.
std::vector<std::string> runNames(const std::vector<Document>& docs);

/// The charts of `docs` merged by chart id, in first-seen order. With one document the names stay as they are.
std::vector<ViewChart> overlayCharts(const std::vector<Document>& docs);

}  // namespace pf::gui

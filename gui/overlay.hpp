// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Several documents on one set of charts: charts with the same id (the same collective, type and op, or the
// same scaling chart) become one chart whose series are named "<file>: <series>". The series and their points
// are the chart model's, unchanged; only their names and grouping are the viewer's.
#pragma once

#include <vector>

#include "document_loader.hpp"

namespace pf::gui {

/// The charts of `docs` merged by chart id, in first-seen order. With one document the names stay as they are.
std::vector<reports::charts::Chart> overlayCharts(const std::vector<Document>& docs);

}  // namespace pf::gui

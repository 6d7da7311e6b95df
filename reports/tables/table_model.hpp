// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Tables a report page shows besides the command's own text: derived from the document alone, with no
// markup, so HTML and Markdown (and the viewer) lay out the same cells. The capacity plan of a scaling run
// is the first: it answers "how will training scale if we buy or reserve more" in one place.
#pragma once

#include <string>
#include <vector>

#include "pf/result.hpp"

namespace pf::reports::tables {

struct Table {
  std::string id, title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;  ///< sentences shown under the table
};

struct Section {
  std::string title;
  std::vector<std::string> headline;  ///< the answer first, in sentences
  std::vector<Table> tables;
};

/// Every section the document supports: a capacity plan per scaling result that carries the model's data.
std::vector<Section> sectionsFor(const RunReport& report);

/// The capacity plan of one result of kind scale, or an empty section when it has no predictions (no --from).
Section capacityPlan(const Result& scale);

/// The page of `preflight plan` (a result of kind plan): the headline (its caveats first, then how many nodes and
/// what it costs), the allocations, the collectives at the largest, the buckets and caps, busbw per size.
Section planSection(const Result& plan);

/// Every table of a section as plain text (the terminal view of `preflight plan`).
std::string sectionText(const Section& s);

}  // namespace pf::reports::tables

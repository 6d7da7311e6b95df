// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The Scaling tab: E(N), throughput, step time and the step-time breakdown (the chart model's scale.*
// charts, overlaid across files), and below them each document's capacity plan as the reports lay it out.
#pragma once

#include "chart_panel.hpp"
#include "document_loader.hpp"

namespace pf::gui {

class ScalingView : public ChartPanel {
  Q_OBJECT

 public:
  ScalingView(const std::vector<ViewChart>& charts, const std::vector<Document>& docs, bool dark,
              QWidget* parent = nullptr);
};

}  // namespace pf::gui

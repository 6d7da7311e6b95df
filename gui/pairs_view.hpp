// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The Pairs tab: each document's node x node matrix (charts::pairHeatmap) with its colour scale, hover giving
// the pair's own row (bandwidth both ways, latency, status and reason), and the failing links and nodes listed.
#pragma once

#include <QList>
#include <QPair>
#include <QRect>
#include <QWidget>
#include <vector>

#include "charts/heatmap_view.hpp"
#include "document_loader.hpp"

namespace pf::gui {

class PairsView : public QWidget {
  Q_OBJECT

 public:
  PairsView(const std::vector<Document>& docs, QWidget* parent = nullptr);

  const std::vector<HeatmapView*>& heatmaps() const { return heatmaps_; }
  /// What the failure list shows, in order: the matrix' failing links, then the nodes a check failed.
  const QStringList& failures() const { return failures_; }
  QList<QPair<QString, QRect>> plotAreas(QWidget* window) const;

 private:
  std::vector<HeatmapView*> heatmaps_;
  QStringList failures_;
};

/// True when any of `docs` has a pair matrix.
bool hasPairs(const std::vector<Document>& docs);

}  // namespace pf::gui

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pairs_view.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QVBoxLayout>
#include <map>

#include "pf/pair_row.hpp"

namespace pf::gui {
namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

// The hover text of each pair, keyed by its two host names as the heatmap names its rows and columns.
using PairTexts = std::map<std::pair<std::string, std::string>, QString>;

PairTexts pairTexts(const RunReport& report) {
  PairTexts out;
  for (const Result& r : report.results) {
    if (r.kind != Kind::kPairs) continue;
    for (const Json& j : r.rows) {
      const PairRow p = pairRowFromJson(j);
      QString t = QString("%1 -> %2: %3 GB/s\n%2 -> %1: %4 GB/s\nlatency %5 us\n%6")
                      .arg(text(p.host_a), text(p.host_b))
                      .arg(p.bw_a_to_b_gbps, 0, 'g', 4)
                      .arg(p.bw_b_to_a_gbps, 0, 'g', 4)
                      .arg(p.lat_us, 0, 'g', 4)
                      .arg(toString(p.status));
      if (p.expected_gbps) t += QString(" (expected %1 GB/s)").arg(*p.expected_gbps, 0, 'g', 4);
      if (!p.reason.empty()) t += "\n" + text(p.reason);
      out[{p.host_a, p.host_b}] = out[{p.host_b, p.host_a}] = t;
    }
  }
  return out;
}

}  // namespace

bool hasPairs(const std::vector<Document>& docs) {
  for (const Document& d : docs)
    if (!d.charts.heatmaps.empty()) return true;
  return false;
}

PairsView::PairsView(const std::vector<Document>& docs, QWidget* parent) : QWidget(parent) {
  auto* content = new QWidget();
  auto* column = new QVBoxLayout(content);
  for (const Document& doc : docs) {
    if (doc.charts.heatmaps.empty()) continue;
    auto texts = std::make_shared<PairTexts>(pairTexts(doc.report));
    std::vector<PairMatrix> matrices;
    for (const reports::charts::Heatmap& h : doc.charts.heatmaps) matrices.push_back(pairMatrix(h));
    for (const PairMatrix& hm : matrices) {
      auto nodes = hm.nodes;
      auto* view = new HeatmapView(hm, [texts, nodes](int r, int c) {
        auto it = texts->find({nodes[r], nodes[c]});
        return it == texts->end() ? QString() : it->second;
      });
      heatmaps_.push_back(view);
      auto* list = new QListWidget();
      QStringList lines;
      for (const auto& f : hm.failing) lines << text(f);
      // Nodes a check failed or warned about (the pair analysis names a node when all its links are slow).
      for (const Result& r : doc.report.results)
        if (r.kind == Kind::kCheck && (r.status == Status::kFail || r.status == Status::kWarn))
          lines << QString("%1 %2: %3").arg(toString(r.status), text(r.host), text(r.message));
      if (lines.isEmpty()) lines << tr("no failing links or nodes");
      list->addItems(lines);
      list->setWordWrap(true);
      failures_ << lines;
      auto* row = new QHBoxLayout();
      row->addWidget(view, 3);
      auto* side = new QVBoxLayout();
      side->addWidget(new QLabel(tr("<b>%1: failing links and nodes</b>").arg(text(doc.name).toHtmlEscaped())));
      side->addWidget(list);
      row->addLayout(side, 2);
      column->addLayout(row, 1);
    }
  }
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setWidget(content);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);
}

QList<QPair<QString, QRect>> PairsView::plotAreas(QWidget* window) const {
  QList<QPair<QString, QRect>> out;
  for (HeatmapView* v : heatmaps_) {
    const QRect area = v->plotArea();
    out.append({QString::fromStdString(v->model().id), QRect(v->mapTo(window, area.topLeft()), area.size())});
  }
  return out;
}

}  // namespace pf::gui

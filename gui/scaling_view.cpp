// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "scaling_view.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

#include "tables/table_model.hpp"

namespace pf::gui {
namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

// One table of the table model as a read-only QTableWidget: the cells are the reports' own strings.
QTableWidget* tableWidget(const reports::tables::Table& t) {
  auto* w = new QTableWidget(static_cast<int>(t.rows.size()), static_cast<int>(t.header.size()));
  QStringList header;
  for (const auto& h : t.header) header << text(h);
  w->setHorizontalHeaderLabels(header);
  for (size_t r = 0; r < t.rows.size(); ++r)
    for (size_t c = 0; c < t.rows[r].size() && c < t.header.size(); ++c)
      w->setItem(static_cast<int>(r), static_cast<int>(c), new QTableWidgetItem(text(t.rows[r][c])));
  w->setEditTriggers(QAbstractItemView::NoEditTriggers);
  w->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  w->verticalHeader()->hide();
  w->setMinimumHeight(std::min(400, 40 + 30 * static_cast<int>(t.rows.size())));
  w->setObjectName(text(t.id));
  return w;
}

}  // namespace

ScalingView::ScalingView(const std::vector<ViewChart>& charts, const std::vector<Document>& docs, bool dark,
                         QWidget* parent)
    : ChartPanel(chartsWithPrefix(charts, "scale."), dark, parent) {
  for (const Document& doc : docs) {
    for (const reports::tables::Section& section : reports::tables::sectionsFor(doc.report)) {
      auto* title = new QLabel(
          QString("<h3>%1: %2</h3>").arg(text(doc.name).toHtmlEscaped(), text(section.title).toHtmlEscaped()));
      below()->addWidget(title);
      for (const auto& line : section.headline) {
        auto* l = new QLabel(text(line));
        l->setWordWrap(true);
        below()->addWidget(l);
      }
      for (const auto& table : section.tables) {
        below()->addWidget(new QLabel("<b>" + text(table.title).toHtmlEscaped() + "</b>"));
        below()->addWidget(tableWidget(table));
        for (const auto& note : table.notes) {
          auto* l = new QLabel(text(note));
          l->setWordWrap(true);
          below()->addWidget(l);
        }
      }
    }
  }
}

}  // namespace pf::gui

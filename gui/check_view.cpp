// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "check_view.hpp"

#include <QHeaderView>
#include <QVBoxLayout>
#include <algorithm>

namespace pf::gui {
namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

QColor statusColor(Status s) {
  switch (s) {
    case Status::kPass: return QColor(0x2c, 0xa0, 0x2c);
    case Status::kWarn: return QColor(0xff, 0x7f, 0x0e);
    case Status::kSkipped:
    case Status::kAbsent: return QColor(0x7f, 0x7f, 0x7f);
    default: return QColor(0xd6, 0x27, 0x28);
  }
}

}  // namespace

bool isFinding(const Result& r) {
  return r.kind != Kind::kSweep && r.kind != Kind::kScale && r.kind != Kind::kComparison && r.kind != Kind::kPlan;
}

bool hasFindings(const std::vector<Document>& docs) {
  for (const Document& d : docs)
    if (std::any_of(d.report.results.begin(), d.report.results.end(), isFinding)) return true;
  return false;
}

CheckView::CheckView(const std::vector<Document>& docs, QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  struct Row {
    const Document* doc;
    const Result* result;
  };
  std::vector<Row> rows;
  for (const Document& d : docs) {
    auto* verdict = new QLabel(QString("<b>%1</b>: %2 <b>%3</b>, exit code %4, %5 results")
                                   .arg(text(d.name).toHtmlEscaped(), text(d.report.context.command).toHtmlEscaped(),
                                        toString(d.report.verdict))
                                   .arg(d.report.exit_code)
                                   .arg(d.report.results.size()));
    layout->addWidget(verdict);
    for (const Result& r : d.report.results)
      if (isFinding(r)) rows.push_back({&d, &r});
  }
  // Failures first: the worst status at the top, the document's own order within one status.
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return static_cast<int>(a.result->status) > static_cast<int>(b.result->status);
  });
  const QStringList header{tr("status"), tr("file"), tr("node"), tr("check"), tr("message"), tr("remedy")};
  table_ = new QTableWidget(static_cast<int>(rows.size()), static_cast<int>(header.size()), this);
  table_->setHorizontalHeaderLabels(header);
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const Result& r = *rows[i].result;
    const QStringList cells{toString(r.status), text(rows[i].doc->name), text(r.host),
                            text(r.key),        text(r.message),         text(r.remedy)};
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setToolTip(cells[c]);  // long messages and remedies read in full on hover
      if (c == 0) item->setForeground(statusColor(r.status));
      table_->setItem(i, c, item);
    }
  }
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setWordWrap(true);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setColumnHidden(1, docs.size() < 2);  // the file column only tells files apart
  table_->resizeColumnsToContents();
  table_->setColumnWidth(4, std::min(table_->columnWidth(4), 420));
  table_->resizeRowsToContents();
  layout->addWidget(table_, 1);
}

}  // namespace pf::gui

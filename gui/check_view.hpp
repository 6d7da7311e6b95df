// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The Check/Probes tab: each document's verdict, then every finding (probes, gate checks, environment checks,
// diagnoses) in one table, worst first, with its node, message and remedy written out in full.
#pragma once

#include <QLabel>
#include <QTableWidget>
#include <QWidget>
#include <vector>

#include "document_loader.hpp"

namespace pf::gui {

class CheckView : public QWidget {
  Q_OBJECT

 public:
  CheckView(const std::vector<Document>& docs, QWidget* parent = nullptr);
  QTableWidget* table() const { return table_; }

 private:
  QTableWidget* table_ = nullptr;
};

/// True when a result is a finding the Check/Probes tab lists (not a sweep, scaling run or comparison).
bool isFinding(const Result& r);
/// True when any of `docs` has a finding.
bool hasFindings(const std::vector<Document>& docs);

}  // namespace pf::gui

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The viewer's window: a tab per kind of data the open documents hold (Scaling, Sweeps, Comparison, Pairs,
// Check/Probes), rebuilt whenever the document set changes. Files come from the command line, File > Open,
// the recent-files menu (QSettings) or drag and drop; a file that fails to load is reported by name and
// leaves the others open.
#pragma once

#include <QMainWindow>
#include <QStringList>

#include "document_set.hpp"

class QTabWidget;
class QMenu;

namespace pf::gui {

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  /// `interactive` false: errors go to the status bar and lastErrors() only, never a modal box (tests, batch).
  explicit MainWindow(bool interactive = true, QWidget* parent = nullptr);

  /// Opens the files; returns (and shows) one message per file that could not be read.
  QStringList openFiles(const QStringList& paths);
  DocumentSet& documents() { return docs_; }
  const QStringList& lastErrors() const { return errors_; }
  QTabWidget* tabs() const { return tabs_; }
  /// The tab titled `title`, or nullptr.
  QWidget* tab(const QString& title) const;

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void changeEvent(QEvent* e) override;

 private:
  void rebuild();
  void showErrors(const QStringList& errors);
  void rememberRecent(const QStringList& paths);
  void fillRecentMenu();
  void exportAllDialog();

  DocumentSet docs_;
  QTabWidget* tabs_ = nullptr;
  QMenu* recent_ = nullptr;
  QStringList errors_;
  bool interactive_ = true;
  bool dark_ = false;
};

}  // namespace pf::gui

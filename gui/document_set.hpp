// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The documents open in the viewer. Loading is the error boundary: a file that cannot be read becomes a
// message naming it, the other documents stay open. Each file is watched, so a sweep that streams its partial
// document (rewritten every few seconds, by rename) is redrawn as it grows.
#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QStringList>
#include <vector>

#include "document_loader.hpp"

namespace pf::gui {

class DocumentSet : public QObject {
  Q_OBJECT

 public:
  explicit DocumentSet(QObject* parent = nullptr);

  /// Opens each path, or reloads it when it is already open. Returns one message per file that could not be
  /// read ("FILE: what is wrong"); those files are left out and everything else stays open.
  QStringList open(const QStringList& paths);
  void close(const QString& path);
  void closeAll();
  const std::vector<Document>& documents() const { return docs_; }

 signals:
  /// The set of documents or one document's content changed: views rebuild from documents().
  void changed();
  /// A watched file changed but could not be read again; the last good content stays shown.
  void reloadFailed(const QString& message);

 private:
  void fileChanged(const QString& path);
  void watch(const QString& path);

  std::vector<Document> docs_;
  QFileSystemWatcher watcher_;
};

}  // namespace pf::gui

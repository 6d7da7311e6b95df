// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "document_set.hpp"

#include <QFileInfo>
#include <QTimer>
#include <algorithm>
#include <exception>

namespace pf::gui {
namespace {

// Reads one file; an error comes back as a message naming the file instead of an exception, so one bad
// file never takes the window (or the other files) down.
bool tryLoad(const QString& path, Document& out, QString& error) {
  try {
    out = loadDocument(path.toStdString());
    return true;
  } catch (const std::exception& e) {
    const QString what = QString::fromStdString(e.what());
    // core's messages usually name the path already; do not say it twice.
    error = what.contains(path) ? what : path + ": " + what;
  } catch (...) {
    error = path + ": unreadable (unknown error)";
  }
  return false;
}

}  // namespace

DocumentSet::DocumentSet(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFileSystemWatcher::fileChanged, this, &DocumentSet::fileChanged);
}

QStringList DocumentSet::open(const QStringList& paths) {
  QStringList errors;
  bool any = false;
  for (const QString& path : paths) {
    Document doc;
    QString error;
    if (!tryLoad(path, doc, error)) {
      errors << error;
      continue;
    }
    auto it = std::find_if(docs_.begin(), docs_.end(), [&](const Document& d) { return d.path == doc.path; });
    if (it != docs_.end())
      *it = std::move(doc);
    else
      docs_.push_back(std::move(doc));
    watch(path);
    any = true;
  }
  if (any) emit changed();
  return errors;
}

void DocumentSet::close(const QString& path) {
  const auto before = docs_.size();
  std::erase_if(docs_, [&](const Document& d) { return d.path == path.toStdString(); });
  watcher_.removePath(path);
  if (docs_.size() != before) emit changed();
}

void DocumentSet::closeAll() {
  if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
  docs_.clear();
  emit changed();
}

void DocumentSet::watch(const QString& path) {
  if (!watcher_.files().contains(path)) watcher_.addPath(path);
}

void DocumentSet::fileChanged(const QString& path) {
  // Documents are replaced by rename (writeFileAtomic), which ends the watch on the old inode: wait for the
  // writer to finish, then read the new file and watch it again.
  QTimer::singleShot(150, this, [this, path] {
    const bool open =
        std::any_of(docs_.begin(), docs_.end(), [&](const Document& d) { return d.path == path.toStdString(); });
    if (!open) return;
    Document doc;
    QString error;
    if (QFileInfo::exists(path)) watch(path);
    if (!tryLoad(path, doc, error)) {
      emit reloadFailed(error);
      return;
    }
    for (Document& d : docs_)
      if (d.path == doc.path) d = std::move(doc);
    emit changed();
  });
}

}  // namespace pf::gui

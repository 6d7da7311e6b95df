// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The viewer without a person at it: --export-png renders every chart of each document to a PNG, and
// --screenshot photographs each tab of the real window (with the plot areas it drew, for the pixel check).
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <QTextStream>

namespace pf::gui {

class MainWindow;

inline constexpr QSize kExportSize{1000, 600};

/// Writes DIR/<document stem>-<chart id>.png for every chart and pair matrix of each file, at kExportSize.
/// A file that cannot be read gets a message on `err` naming it and nothing written; the others are exported.
/// @return 0, or 2 when any file was unreadable or DIR could not be written.
int exportPngs(const QString& dir, const QStringList& files, QTextStream& err);

/// Shows `window`, and for each tab writes DIR/viewer-<tab>.png (the window grabbed) and DIR/viewer-<tab>.json
/// ({"boxes": [{"id", "x", "y", "w", "h"}]}: each drawn plot area, in the PNG's pixels).
/// @return 0, or 2 when DIR could not be written.
int screenshots(MainWindow& window, const QString& dir, QTextStream& err);

}  // namespace pf::gui

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// preflight-viewer [FILE...]                      the window, with these documents open
// preflight-viewer --export-png DIR FILE...       every chart as DIR/<stem>-<chart id>.png, no window
// preflight-viewer --screenshot DIR FILE...       each tab of the window as DIR/viewer-<tab>.png, then exit
#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <cstdlib>
#include <cstring>

#include "batch.hpp"
#include "main_window.hpp"

int main(int argc, char** argv) {
  // Exporting needs no screen: without a display Qt would refuse to start, so pick the offscreen platform
  // before QApplication reads it.
  auto isSet = [](const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
  };
  bool exporting = false;
  for (int i = 1; i < argc; ++i) exporting = exporting || std::strcmp(argv[i], "--export-png") == 0;
  if (exporting && !isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY") && !isSet("QT_QPA_PLATFORM"))
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
  QApplication app(argc, argv);
  QApplication::setApplicationName("preflight-viewer");
  QCommandLineParser parser;
  parser.setApplicationDescription("Draws Preflight result documents: scaling, sweeps, pair matrices, checks.");
  parser.addHelpOption();
  QCommandLineOption exportPng("export-png", "Render every chart of each FILE to DIR/<stem>-<chart id>.png and exit.",
                               "DIR");
  QCommandLineOption screenshot("screenshot", "Open the window, save each tab to DIR/viewer-<tab>.png and exit.",
                                "DIR");
  parser.addOption(exportPng);
  parser.addOption(screenshot);
  parser.addPositionalArgument("FILE", "Result documents (preflight ... --json FILE).", "[FILE...]");
  parser.process(app);
  const QStringList files = parser.positionalArguments();
  QTextStream err(stderr);
  if (parser.isSet(exportPng)) {
    if (files.isEmpty()) {
      err << "preflight-viewer: --export-png DIR needs at least one FILE\n";
      return 2;
    }
    return pf::gui::exportPngs(parser.value(exportPng), files, err);
  }
  const bool batch = parser.isSet(screenshot);
  pf::gui::MainWindow window(!batch);
  const QStringList errors = window.openFiles(files);
  for (const QString& e : errors) err << "preflight-viewer: " << e << "\n";
  if (batch) {
    const int rc = pf::gui::screenshots(window, parser.value(screenshot), err);
    return rc != 0 ? rc : errors.isEmpty() ? 0 : 2;
  }
  window.show();
  return app.exec();
}

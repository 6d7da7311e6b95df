// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// preflight-viewer [FILE...]                      the window, with these documents open
// preflight-viewer --export-png DIR FILE...       every chart as DIR/<stem>-<chart id>.png, no window
// preflight-viewer --screenshot DIR FILE...       each tab of the window as DIR/viewer-<tab>.png, then exit
#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "batch.hpp"
#include "main_window.hpp"

int main(int argc, char** argv) {
  // Exporting, --help and --version need no screen. Without a display Qt aborts at startup (exit 134), so for
  // these pick the offscreen platform before QApplication reads it, and for the window say what is missing.
  auto isSet = [](const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
  };
  bool headless = false;
  for (int i = 1; i < argc; ++i)
    for (const char* flag : {"--export-png", "--help", "-h", "--help-all", "--version", "-v"})
      headless = headless || std::strcmp(argv[i], flag) == 0;
  if (!isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY") && !isSet("QT_QPA_PLATFORM")) {
    if (!headless) {
      std::fprintf(stderr,
                   "preflight-viewer: no display (DISPLAY and WAYLAND_DISPLAY are unset): run it on a desktop, "
                   "under xvfb-run, or use --export-png DIR FILE... to write the charts as PNG files\n");
      return 2;
    }
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
  }
  QApplication app(argc, argv);
  QApplication::setApplicationName("preflight-viewer");
  QApplication::setApplicationVersion(PF_VIEWER_VERSION);
  QCommandLineParser parser;
  parser.setApplicationDescription("Draws Preflight result documents: scaling, sweeps, pair matrices, checks.");
  parser.addHelpOption();
  parser.addVersionOption();
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

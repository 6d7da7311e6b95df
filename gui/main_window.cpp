// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "main_window.hpp"

#include <QApplication>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

#include "chart_panel.hpp"
#include "check_view.hpp"
#include "overlay.hpp"
#include "pairs_view.hpp"
#include "scaling_view.hpp"

namespace pf::gui {
namespace {

constexpr int kRecentMax = 10;

}  // namespace

MainWindow::MainWindow(bool interactive, QWidget* parent) : QMainWindow(parent), interactive_(interactive) {
  setWindowTitle(tr("Preflight viewer"));
  setAcceptDrops(true);
  dark_ = isDark(palette());
  tabs_ = new QTabWidget(this);
  setCentralWidget(tabs_);
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
    openFiles(QFileDialog::getOpenFileNames(this, tr("Open result documents"), {},
                                            tr("Result documents (*.json);;All files (*)")));
  });
  recent_ = file->addMenu(tr("Open &recent"));
  file->addAction(tr("&Close all"), this, [this] { docs_.closeAll(); });
  file->addAction(tr("&Export all charts (PNG and SVG)..."), this, &MainWindow::exportAllDialog);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
  fillRecentMenu();
  connect(&docs_, &DocumentSet::changed, this, &MainWindow::rebuild);
  connect(&docs_, &DocumentSet::reloadFailed, this, [this](const QString& m) { showErrors({m}); });
  statusBar()->showMessage(tr("Open a result document (File > Open, or drop it here)"));
  resize(1400, 900);
  rebuild();
}

QStringList MainWindow::openFiles(const QStringList& paths) {
  if (paths.isEmpty()) return {};
  const QStringList errors = docs_.open(paths);
  QStringList opened;
  for (const QString& p : paths)
    if (!std::any_of(errors.begin(), errors.end(), [&](const QString& e) { return e.startsWith(p); })) opened << p;
  rememberRecent(opened);
  showErrors(errors);
  return errors;
}

QWidget* MainWindow::tab(const QString& title) const {
  for (int i = 0; i < tabs_->count(); ++i)
    if (tabs_->tabText(i) == title) return tabs_->widget(i);
  return nullptr;
}

void MainWindow::showErrors(const QStringList& errors) {
  errors_ = errors;
  if (errors.isEmpty()) return;
  statusBar()->showMessage(errors.join("; "));
  if (interactive_) QMessageBox::warning(this, tr("Could not open"), errors.join("\n\n"));
}

void MainWindow::rebuild() {
  const QString current = tabs_->count() ? tabs_->tabText(tabs_->currentIndex()) : QString();
  while (tabs_->count()) {
    QWidget* w = tabs_->widget(0);
    tabs_->removeTab(0);
    w->deleteLater();
  }
  const std::vector<Document>& docs = docs_.documents();
  const auto charts = overlayCharts(docs);
  // A tab only for what the documents hold, in the order a person asks: scaling, sweeps, comparisons, history, pairs,
  // checks.
  if (!chartsWithPrefix(charts, "scale.").empty()) tabs_->addTab(new ScalingView(charts, docs, dark_), tr("Scaling"));
  if (!chartsWithPrefix(charts, "sweep.").empty())
    tabs_->addTab(new ChartPanel(chartsWithPrefix(charts, "sweep."), dark_), tr("Sweeps"));
  if (!chartsWithPrefix(charts, "compare.").empty())
    tabs_->addTab(new ChartPanel(chartsWithPrefix(charts, "compare."), dark_), tr("Comparison"));
  if (!chartsWithPrefix(charts, "history.").empty())
    tabs_->addTab(new ChartPanel(chartsWithPrefix(charts, "history."), dark_), tr("History"));
  if (hasPairs(docs)) tabs_->addTab(new PairsView(docs), tr("Pairs"));
  if (hasFindings(docs)) tabs_->addTab(new CheckView(docs), tr("Check/Probes"));
  if (tabs_->count() == 0) {
    auto* hint = new QLabel(docs.empty() ? tr("No document open. Use File > Open or drop result documents here.")
                                         : tr("The open documents have nothing to chart."));
    hint->setAlignment(Qt::AlignCenter);
    tabs_->addTab(hint, tr("Start"));
  }
  for (int i = 0; i < tabs_->count(); ++i)
    if (tabs_->tabText(i) == current) tabs_->setCurrentIndex(i);
  QStringList names;
  for (const Document& d : docs) names << QString::fromStdString(d.name);
  setWindowTitle(names.isEmpty() ? tr("Preflight viewer") : tr("Preflight viewer - %1").arg(names.join(", ")));
}

void MainWindow::rememberRecent(const QStringList& paths) {
  if (paths.isEmpty()) return;
  QSettings settings("preflight", "preflight-viewer");
  QStringList recent = settings.value("recent").toStringList();
  for (const QString& p : paths) {
    const QString abs = QFileInfo(p).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
  }
  settings.setValue("recent", recent.mid(0, kRecentMax));
  fillRecentMenu();
}

void MainWindow::fillRecentMenu() {
  recent_->clear();
  const QStringList recent = QSettings("preflight", "preflight-viewer").value("recent").toStringList();
  for (const QString& p : recent) recent_->addAction(p, this, [this, p] { openFiles({p}); });
  recent_->setEnabled(!recent.isEmpty());
}

void MainWindow::exportAllDialog() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Export every chart to"));
  if (dir.isEmpty()) return;
  int count = 0;
  for (int i = 0; i < tabs_->count(); ++i)
    if (auto* panel = qobject_cast<ChartPanel*>(tabs_->widget(i)))
      count += static_cast<int>(panel->exportAll(dir, "", QSize(1000, 600)).size());
  statusBar()->showMessage(tr("%1 files written to %2").arg(count).arg(dir));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  QStringList paths;
  for (const QUrl& url : e->mimeData()->urls())
    if (url.isLocalFile()) paths << url.toLocalFile();
  openFiles(paths);
}

void MainWindow::changeEvent(QEvent* e) {
  // The desktop switched between light and dark: redraw the charts in the matching theme.
  if (e->type() == QEvent::PaletteChange && isDark(palette()) != dark_) {
    dark_ = isDark(palette());
    rebuild();
  }
  QMainWindow::changeEvent(e);
}

}  // namespace pf::gui

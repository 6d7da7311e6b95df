// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The viewer on large documents: loading (read + chart model) and building the views for a 10,000-row sweep
// and a 256-node pair matrix. Both documents are SYNTHETIC, made here from the core row types (SweepRow,
// PairRow); only their size matters. Runs on Qt's offscreen platform.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <filesystem>

#include "chart_panel.hpp"
#include "document_loader.hpp"
#include "overlay.hpp"
#include "pairs_view.hpp"
#include "pf/pair_row.hpp"
#include "pf/report_io.hpp"
#include "pf/sweep_row.hpp"

namespace {

std::string writeSynthetic(const char* name, pf::Result r) {
  pf::RunReport report;
  report.context.command = "synthetic";
  report.results.push_back(std::move(r));
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  pf::writeReport(report, path);
  return path;
}

std::string sweepDocument() {
  pf::Result r;
  r.key = "sweep.all_reduce";
  r.kind = pf::Kind::kSweep;
  pf::SweepParams p;
  p.collective = "all_reduce";
  r.params = pf::toJson(p);
  for (int i = 0; i < 10000; ++i) {  // 5,000 sizes x 2 placements, with per-iteration times for the bands
    pf::SweepRow row;
    row.collective = "all_reduce", row.dtype = "float", row.op = "sum", row.placement = i % 2 ? "in" : "out";
    row.size_bytes = uint64_t(8) * (i / 2 + 1);
    row.time_us = 5 + row.size_bytes / 1e4;
    row.algbw_gbps = row.size_bytes / row.time_us / 1e3;
    row.busbw_gbps = row.algbw_gbps;
    row.iter_min_us = row.time_us * 0.9, row.iter_p50_us = row.time_us, row.iter_max_us = row.time_us * 1.3;
    r.rows.push_back(pf::toJson(row));
  }
  return writeSynthetic("pf_viewer_bench_sweep.json", std::move(r));
}

std::string pairsDocument() {
  pf::Result r;
  r.key = "pairs";
  r.kind = pf::Kind::kPairs;
  for (int a = 0; a < 256; ++a)
    for (int b = a + 1; b < 256; ++b) {
      pf::PairRow row;
      row.node_a = a, row.node_b = b, row.host_a = "node" + std::to_string(a), row.host_b = "node" + std::to_string(b);
      row.bw_a_to_b_gbps = row.bw_b_to_a_gbps = 20 + (a * b) % 5;
      row.expected_gbps = 24, row.pct_of_expected = row.bw_a_to_b_gbps / 24 * 100;
      r.rows.push_back(pf::toJson(row));
    }
  return writeSynthetic("pf_viewer_bench_pairs.json", std::move(r));
}

void BM_LoadSweep10k(benchmark::State& state) {
  const std::string path = sweepDocument();
  for (auto _ : state) benchmark::DoNotOptimize(pf::gui::loadDocument(path));
}
void BM_BuildSweepView10k(benchmark::State& state) {
  const pf::gui::Document doc = pf::gui::loadDocument(sweepDocument());
  for (auto _ : state) {
    pf::gui::ChartPanel panel(pf::gui::overlayCharts({doc}), false);
    benchmark::DoNotOptimize(panel.chartViews().size());
  }
}
void BM_LoadPairs256(benchmark::State& state) {
  const std::string path = pairsDocument();
  for (auto _ : state) benchmark::DoNotOptimize(pf::gui::loadDocument(path));
}
void BM_BuildAndDrawPairs256(benchmark::State& state) {
  const std::vector<pf::gui::Document> docs{pf::gui::loadDocument(pairsDocument())};
  for (auto _ : state) {
    pf::gui::PairsView view(docs);
    benchmark::DoNotOptimize(view.heatmaps().front()->image(QSize(1000, 1000)));  // includes painting 65,536 cells
  }
}
BENCHMARK(BM_LoadSweep10k)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BuildSweepView10k)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadPairs256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BuildAndDrawPairs256)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

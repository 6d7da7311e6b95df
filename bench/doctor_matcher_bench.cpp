// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Throughput of the doctor's matcher over a generated log shaped like a large job's: NCCL INFO start-up lines
// from thousands of ranks (prefixed host:pid:tid [dev], some behind torchrun/Kubernetes prefixes), training
// progress lines, and a rare error. Run `pf_doctor_bench --generate FILE MB` to write the same log to disk
// for bench/doctor_grep_compare.sh, which times `grep -F` on it (docs/performance.md).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include "analysis.hpp"
#include "info_extractor.hpp"
#include "matcher.hpp"
#include "rule_catalog.hpp"

namespace {

std::string generateLog(std::size_t bytes) {
  std::mt19937 gen(42);
  auto rng = [&gen] { return static_cast<unsigned>(gen()); };
  std::string out;
  out.reserve(bytes + 256);
  char line[512];
  const char* vias[] = {"P2P/IPC/read", "NET/IB/0/GDRDMA", "SHM/direct/direct", "P2P/CUMEM", "NET/Socket/1"};
  std::size_t n = 0;
  while (out.size() < bytes) {
    const unsigned rank = rng() % 4096, node = rank / 8, dev = rank % 8;
    const unsigned pid = 10000 + rank, kind = rng() % 100;
    int len;
    if (kind < 45) {
      len = std::snprintf(line, sizeof line, "node%04u:%u:%u [%u] NCCL INFO Channel %02u/0 : %u[%u] -> %u[%u] via %s\n",
                          node, pid, pid + 77, dev, rng() % 32, rank, dev, (rank + 1) % 4096, (dev + 1) % 8,
                          vias[rng() % 5]);
    } else if (kind < 60) {
      len = std::snprintf(line, sizeof line,
                          "[2026-11-22 10:%02u:%02u] node%04u:%u:%u [%u] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB "
                          "[1]mlx5_1:1/IB ; OOB ib0:10.1.%u.%u<0>\n",
                          rng() % 60, rng() % 60, node, pid, pid, dev, node / 256, node % 256);
    } else if (kind < 85) {
      len =
          std::snprintf(line, sizeof line,
                        "[rank%u]: iteration %zu/100000 | consumed samples: %zu | lm loss: %.6f | grad norm: %.3f "
                        "| tokens/s: %u\n",
                        rank, n, n * 512, 2.0 + (rng() % 1000) / 1000.0, (rng() % 1000) / 100.0, 100000 + rng() % 9999);
    } else {
      len = std::snprintf(line, sizeof line,
                          "2026-11-22T10:00:%02u.%06uZ stdout F [default%u]:node%04u:%u:%u [%u] NCCL INFO comm 0x%x "
                          "rank %u nranks 4096 cudaDev %u nvmlDev %u busId %x000 commId 0xabcdef - Init COMPLETE\n",
                          rng() % 60, rng() % 1000000, dev, node, pid, pid, dev, rng(), rank, dev, dev, 0x18 + dev);
    }
    out.append(line, static_cast<std::size_t>(len));
    // One real failure per ~4 MB, so the matcher also pays for verified hits.
    if (++n % 30000 == 0)
      out +=
          "node0042:10336:10400 [0] misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error "
          "Cannot allocate memory\n";
  }
  return out;
}

// PF_DOCTOR_BENCH_FILE=LOG scans that file instead, e.g. one of real NCCL INFO lines from pf_doctor_realshape_gen
// (its first PF_DOCTOR_BENCH_MB MiB, 256 unless set).
std::string benchInput() {
  const double mb = std::atof(std::getenv("PF_DOCTOR_BENCH_MB") ? std::getenv("PF_DOCTOR_BENCH_MB") : "256");
  const auto bytes = static_cast<std::size_t>(mb * 1048576);
  const char* file = std::getenv("PF_DOCTOR_BENCH_FILE");
  if (!file) return generateLog(bytes);
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "PF_DOCTOR_BENCH_FILE: cannot read %s\n", file);
    std::exit(2);
  }
  std::string log(bytes, '\0');
  in.read(log.data(), static_cast<std::streamsize>(bytes));
  log.resize(static_cast<std::size_t>(in.gcount()));
  return log;
}

const std::string& benchLog() {
  static const std::string log = benchInput();
  return log;
}

void BM_MatcherRulesAndTaps(benchmark::State& state) {
  const auto catalog = pf::doctor::builtinCatalog();
  pf::doctor::Matcher m(catalog, pf::doctor::InfoExtractor::taps());
  pf::doctor::ScanResult r;
  for (auto _ : state) {
    r.clear();
    m.scan(benchLog(), r);
    benchmark::DoNotOptimize(r.tapLines.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * benchLog().size()));
  state.counters["tap_lines"] = static_cast<double>(r.tapLines.size());
}

void BM_MatcherRulesOnly(benchmark::State& state) {
  const auto catalog = pf::doctor::builtinCatalog();
  pf::doctor::Matcher m(catalog, {});
  pf::doctor::ScanResult r;
  std::size_t hits = 0;
  for (auto _ : state) {
    r.clear();
    m.scan(benchLog(), r);
    hits = 0;
    for (const auto& v : r.patternLines) hits += v.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * benchLog().size()));
  state.counters["matched_lines"] = static_cast<double>(hits);
}

void BM_FullAnalysis(benchmark::State& state) {
  const auto catalog = pf::doctor::builtinCatalog();
  std::vector<pf::doctor::Source> src{{"bench.log", benchLog()}};
  for (auto _ : state) {
    auto a = pf::doctor::analyze(catalog, src);
    benchmark::DoNotOptimize(a.diagnoses.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * benchLog().size()));
}

// Reference: one literal with std::string_view::find (memchr-based in libstdc++), the cost floor of any scan.
void BM_SingleLiteralFind(benchmark::State& state) {
  std::string_view text = benchLog();
  std::size_t count = 0;
  for (auto _ : state) {
    count = 0;
    for (std::size_t p = 0; (p = text.find("Cannot allocate memory", p)) != std::string_view::npos; ++p) ++count;
    benchmark::DoNotOptimize(count);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

BENCHMARK(BM_MatcherRulesOnly)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MatcherRulesAndTaps)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FullAnalysis)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_SingleLiteralFind)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--generate") {
    std::ofstream out(argv[2], std::ios::binary);
    const auto log = generateLog(static_cast<std::size_t>(std::atof(argv[3]) * 1048576));
    out.write(log.data(), static_cast<std::streamsize>(log.size()));
    return out ? 0 : 2;
  }
  if (argc == 2 && std::string(argv[1]) == "--print-literals") {
    // The anchors the matcher searches for (rules and taps), one per line: the pattern file for grep -F -f.
    const auto catalog = pf::doctor::builtinCatalog();  // the matcher points into it: keep it alive
    pf::doctor::Matcher m(catalog, pf::doctor::InfoExtractor::taps());
    std::set<std::string> lits;
    for (const auto* p : m.patterns()) lits.insert(p->anchor());
    for (const auto& t : pf::doctor::InfoExtractor::taps()) lits.insert(t);
    for (const auto& l : lits) std::printf("%s\n", l.c_str());
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  (void)benchLog();  // generate the log before any timing starts
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Peer benchmark: the sweep harness against a bare MPI_Allreduce loop, side by side in one run.
//
// Every benchmark iteration runs a bare block (N back-to-back MPI_Allreduce calls between two clock reads)
// and then the harness block (collectives::runSweep for the same size and N, reading back the time it
// reports), so both see the same machine state; repetitions give medians. Counters: bare_us and harness_us
// (time per operation, averaged across ranks, as the sweep reports it) and their ratio. Run under mpirun:
//   mpirun -np 2 build/bench/pf_sweep_vs_bare --benchmark_repetitions=9
// (bench/run_sweep_vs_bare.sh does this and prints the ratio table). Only rank 0 reports.
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backend.hpp"
#include "mpi_bootstrap.hpp"
#include "pf/host_buffer.hpp"
#include "pf/launcher_env.hpp"
#include "pf/timer.hpp"
#include "sweep.hpp"

namespace {

pf::MpiBootstrap* gBoot = nullptr;
pf::collectives::Backend* gBackend = nullptr;

// Operations per block: about 20 ms of work and at least 50 calls (with 10, the one cache-cold call after the
// set-up made large sizes look 5-8% slower in the harness), identical on every rank (a pure function of size).
int opsPerBlock(size_t bytes) {
  double est = 5e-7 + static_cast<double>(bytes) / 2e9;
  return static_cast<int>(std::clamp(0.02 / est, 50.0, 20000.0));
}

// The bare loop's buffers: allocated once and page-aligned, as osu_allreduce does and as the MPI backend's
// (pf/host_buffer.hpp, 4 KiB pages: the sweep's default), so the loop measures MPI and not the allocator.
struct BareBuffers {
  float* send = nullptr;
  float* recv = nullptr;
  explicit BareBuffers(size_t bytes) {
    send = static_cast<float*>(pf::allocateHostBuffer(bytes, false));
    recv = static_cast<float*>(pf::allocateHostBuffer(bytes, false));
    std::fill(send, send + bytes / sizeof(float), 1.0f);
    std::fill(recv, recv + bytes / sizeof(float), 0.0f);
  }
  ~BareBuffers() {
    std::free(send);
    std::free(recv);
  }
};

double bareMicros(size_t bytes, int ops) {
  static BareBuffers bufs(16 << 20);
  int count = static_cast<int>(bytes / sizeof(float));
  MPI_Comm comm = gBoot->comm();
  MPI_Allreduce(bufs.send, bufs.recv, count, MPI_FLOAT, MPI_SUM, comm);  // warm-up
  MPI_Barrier(comm);
  pf::Timer t;
  for (int i = 0; i < ops; ++i) MPI_Allreduce(bufs.send, bufs.recv, count, MPI_FLOAT, MPI_SUM, comm);
  double mine = t.micros() / ops;
  std::vector<double> all = gBoot->allGatherDouble(mine);
  double sum = 0;
  for (double v : all) sum += v;
  return sum / static_cast<double>(all.size());
}

double harnessMicros(size_t bytes, int ops) {
  pf::collectives::SweepOptions o;
  o.minBytes = o.maxBytes = bytes;
  o.iters = ops;
  o.warmup = 1;
  o.checkIters = 0;
  o.perIterTiming = false;
  auto coll = pf::Registry<pf::collectives::Collective>::instance().create("all_reduce");
  pf::Result r = pf::collectives::runSweep(*gBackend, *gBoot, *coll, o);
  return r.rows[0]["time_us"].get<double>();  // the out-of-place row, as printed in the table
}

void BM_SweepVsBare(benchmark::State& state) {
  size_t bytes = static_cast<size_t>(state.range(0));
  int ops = opsPerBlock(bytes);
  double bare = 0, harness = 0;
  // Alternate which block goes first, so neither always runs on a machine the other just warmed.
  static int turn = 0;
  for (auto _ : state) {
    if (turn++ % 2) {
      harness = harnessMicros(bytes, ops);
      bare = bareMicros(bytes, ops);
    } else {
      bare = bareMicros(bytes, ops);
      harness = harnessMicros(bytes, ops);
    }
    state.SetIterationTime(harness * 1e-6);
  }
  state.counters["bare_us"] = bare;
  state.counters["harness_us"] = harness;
  state.counters["ratio"] = harness / bare;
  state.counters["ops"] = ops;
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
// 8 B to 16 MiB, doubling twice per step; one iteration per repetition keeps ranks in lockstep.
BENCHMARK(BM_SweepVsBare)
    ->RangeMultiplier(4)
    ->Range(8, 16 << 20)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

// Non-zero ranks run the same benchmarks (every MPI call needs them) but print nothing.
class NullReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

int main(int argc, char** argv) {
  pf::MpiBootstrap boot(&argc, &argv);
  auto backend = pf::Registry<pf::collectives::Backend>::instance().create("mpi");
  pf::LauncherEnv env;
  backend->init(boot, env);
  gBoot = &boot;
  gBackend = backend.get();
  std::vector<char*> args(argv, argv + argc);
  if (boot.rank() != 0)  // only rank 0 writes --benchmark_out
    args.erase(
        std::remove_if(args.begin(), args.end(), [](char* a) { return std::strncmp(a, "--benchmark_out", 15) == 0; }),
        args.end());
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (boot.rank() == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    NullReporter quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet);
  }
  benchmark::Shutdown();
  return 0;
}

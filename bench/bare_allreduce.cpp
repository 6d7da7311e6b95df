// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The bare reference for the process-level comparison (bench/run_sweep_vs_bare_process.sh): a program that does
// nothing but MPI_Allreduce (float, sum, out of place) on page-aligned buffers, timed as `preflight sweep` times
// its aggregate loop (warm-up, barrier, N calls between two clock reads, the per-rank average averaged over the
// ranks), so that the only differences left are those of the process around the loop.
//   mpirun -np 2 build/bench/pf_bare_allreduce ITERS WARMUP SIZE...
// Prints "size_bytes time_us" per size on rank 0. PF_HUGE_PAGES=1 in the environment places the buffers as
// `preflight sweep --huge-pages` does (pf/host_buffer.hpp).
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pf/host_buffer.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 4) {
    if (rank == 0) std::fprintf(stderr, "usage: pf_bare_allreduce ITERS WARMUP SIZE_BYTES...\n");
    MPI_Finalize();
    return 2;
  }
  const int iters = std::atoi(argv[1]), warmup = std::atoi(argv[2]);
  std::vector<size_t> sizes;
  size_t largest = 4;
  for (int i = 3; i < argc; ++i) sizes.push_back(std::stoul(argv[i])), largest = std::max(largest, sizes.back());
  const char* huge = std::getenv("PF_HUGE_PAGES");
  const bool hugePages = huge && std::string(huge) == "1";
  // whole pages, so that the fill below covers every byte allocateHostBuffer hands out on 4 KiB pages
  const size_t bytes = (largest + pf::kBufferPage - 1) / pf::kBufferPage * pf::kBufferPage;
  auto* send = static_cast<float*>(pf::allocateHostBuffer(bytes, hugePages));
  auto* recv = static_cast<float*>(pf::allocateHostBuffer(bytes, hugePages));
  for (size_t i = 0; i < bytes / sizeof(float); ++i) send[i] = 1.0f, recv[i] = 0.0f;
  for (size_t s : sizes) {
    const int count = static_cast<int>(s / sizeof(float));
    for (int i = 0; i < warmup; ++i) MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / iters;
    double sum = 0;
    MPI_Allreduce(&us, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) std::printf("%zu %.4f\n", s, sum / size);
  }
  std::free(send);
  std::free(recv);
  MPI_Finalize();
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// What the two halves of the model share (modelled_runtime.cpp: CUDA, modelled_nccl.cpp: NCCL): streams and
// the state's lock. Ranks of a multi-rank test are threads of one process, each with its own stream.
#pragma once

#include <cuda_runtime_api.h>

#include <deque>
#include <functional>
#include <mutex>

#include "modelled_runtime.hpp"

struct CUstream_st {
  /// One item: `run` once `ready` (none: at once) allows; a wait for an event has only a `ready`.
  struct Work {
    std::function<bool()> ready;
    std::function<void()> run;
  };
  std::deque<Work> work;
  bool stuck = false;       // holds work that never finishes
  long long enqueued = 0;   // items ever enqueued; an event's ticket is its record's number
  long long completed = 0;  // items run
};

namespace pf::test::modelled::detail {

/// Guards state() and the model's shared tables; never held while a rank waits for its peers.
std::mutex& stateLock();
/// Adds one to a counter of state(), under stateLock().
void count(int State::*counter);
/// Work on stream `s`, run when the host waits for it (the legacy stream, null: now, in order).
void enqueue(cudaStream_t s, std::function<void()> f);
/// Work on stream `s` that may not start before `ready()` is true.
void enqueueWhen(cudaStream_t s, std::function<bool()> ready, std::function<void()> f);
/// Marks `s` as holding work that never finishes.
void stick(cudaStream_t s);
/// Whether some live stream holds work that never finishes.
bool anyStuck();
/// An aborted communicator's kernels end: `s` (when not destroyed) drops its work and is no longer stuck.
void endAborted(cudaStream_t s);
/// Forgets the NCCL half's communicators (reset()).
void resetNccl();

}  // namespace pf::test::modelled::detail

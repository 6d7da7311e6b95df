// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// OpenBLAS, opened when the CPU trainer first needs it instead of linked into `preflight`. Linked, its constructor
// starts a pool of worker threads in every preflight process, one per core less one, and each polls for work (with
// sched_yield) before it sleeps: 0.09 s of CPU per process on the project's 2-core VM, and a thread per core on a
// large node, in every `doctor`, `check` and `probe`, which never multiply a matrix (docs/performance.md,
// "start-up"). The function types are OpenBLAS's own (its cblas.h is still compiled against), so a call through the
// table is checked like a direct call.
#pragma once

#include <cblas.h>

namespace pf::scaling {

struct BlasApi {
  decltype(&cblas_sgemm) sgemm;
  decltype(&openblas_set_num_threads) setThreads;
  decltype(&openblas_get_num_threads) threads;
};

/// The OpenBLAS this build was configured with (PF_OPENBLAS_PATH), else libopenblas.so.0 wherever the loader finds
/// it; opened on the first call.
/// @throws SystemError naming the library and the loader's reason when it or one of its functions is missing.
const BlasApi& openblas();

}  // namespace pf::scaling

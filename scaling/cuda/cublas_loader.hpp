// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// cuBLAS, opened when the CUDA trainer first needs it instead of linked into `preflight`. Linking it makes every
// preflight process pay cuBLASLt's static initialisation, which touches ~88 MB of its .bss: an empty program
// linked against libcublas.so.13 takes 0.08-0.22 s and 211-218 MB resident to start and exit on this machine,
// against 0.00 s and 1 MB unlinked (docs/performance.md), a cost that `doctor`, `check` and `probe` never use.
// The function types are cuBLAS's own (its header is still compiled against), so a call through the table is
// checked like a direct call.
#pragma once

#include <cublas_v2.h>

namespace pf::scaling {

struct CublasApi {
  decltype(&cublasCreate_v2) create;
  decltype(&cublasDestroy_v2) destroy;
  decltype(&cublasSetStream_v2) setStream;
  decltype(&cublasSetMathMode) setMathMode;
  decltype(&cublasSgemm_v2) sgemm;
  decltype(&cublasGetStatusName) statusName;
  decltype(&cublasGetStatusString) statusString;
};

/// The cuBLAS of this build's major version (libcublas.so.<CUBLAS_VER_MAJOR>), opened on the first call.
/// @throws CudaError naming the library and the loader's reason when it or one of its functions is missing.
const CublasApi& cublas();

}  // namespace pf::scaling

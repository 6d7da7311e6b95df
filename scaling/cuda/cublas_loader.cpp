// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "cuda/cublas_loader.hpp"

#include <fmt/format.h>

#include "pf/error.hpp"
#include "pf/shared_library.hpp"

namespace pf::scaling {
namespace {

CublasApi load() {
  // SharedLibrary never closes it: the handles and streams cuBLAS creates live until the process exits.
  SharedLibrary lib(fmt::format("libcublas.so.{}", CUBLAS_VER_MAJOR));
  CublasApi api{};
  lib.bind("cublasCreate_v2", api.create);
  lib.bind("cublasDestroy_v2", api.destroy);
  lib.bind("cublasSetStream_v2", api.setStream);
  lib.bind("cublasSetMathMode", api.setMathMode);
  lib.bind("cublasSgemm_v2", api.sgemm);
  lib.bind("cublasGetStatusName", api.statusName);
  lib.bind("cublasGetStatusString", api.statusString);
  if (!lib.error().empty())
    throw CudaError(
        fmt::format("the CUDA trainer needs cuBLAS: {} (install the CUDA {} toolkit's cuBLAS, or add "
                    "its directory to LD_LIBRARY_PATH)",
                    lib.error(), CUBLAS_VER_MAJOR));
  return api;
}

}  // namespace

const CublasApi& cublas() {
  static const CublasApi api = load();
  return api;
}

}  // namespace pf::scaling

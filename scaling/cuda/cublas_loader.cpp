// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "cuda/cublas_loader.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <string>

#include "pf/error.hpp"

namespace pf::scaling {
namespace {

template <typename F>
void bind(void* lib, const std::string& name, const char* symbol, F& out) {
  out = reinterpret_cast<F>(dlsym(lib, symbol));
  if (!out)
    throw CudaError(
        fmt::format("{} has no {} (a cuBLAS older than the headers this build used): {}", name, symbol, dlerror()));
}

CublasApi load() {
  const std::string name = fmt::format("libcublas.so.{}", CUBLAS_VER_MAJOR);
  // Never closed: the handles and streams it creates live until the process exits.
  void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    throw CudaError(
        fmt::format("cannot load {} for the CUDA trainer: {} (install the CUDA {} toolkit's cuBLAS or "
                    "add its directory to LD_LIBRARY_PATH)",
                    name, dlerror(), CUBLAS_VER_MAJOR));
  CublasApi api{};
  bind(lib, name, "cublasCreate_v2", api.create);
  bind(lib, name, "cublasDestroy_v2", api.destroy);
  bind(lib, name, "cublasSetStream_v2", api.setStream);
  bind(lib, name, "cublasSetMathMode", api.setMathMode);
  bind(lib, name, "cublasSgemm_v2", api.sgemm);
  bind(lib, name, "cublasGetStatusName", api.statusName);
  bind(lib, name, "cublasGetStatusString", api.statusString);
  return api;
}

}  // namespace

const CublasApi& cublas() {
  static const CublasApi api = load();  // a failed load throws, and the next call tries again
  return api;
}

}  // namespace pf::scaling

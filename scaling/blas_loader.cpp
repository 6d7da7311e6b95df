// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "blas_loader.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <string>

#include "pf/error.hpp"
#include "pf/shared_library.hpp"

namespace pf::scaling {
namespace {

BlasApi load() {
  // The variant found at configure time (Debian's openblas-pthread, the one the trainer's timings were measured
  // with) when this machine has it; the system's choice of libopenblas.so.0 otherwise (a package installed elsewhere).
  std::string soname = PF_OPENBLAS_PATH;
  std::error_code ec;
  if (soname.empty() || !std::filesystem::exists(soname, ec)) soname = "libopenblas.so.0";
  // SharedLibrary never closes it: OpenBLAS's threads live until the process exits.
  SharedLibrary lib(soname);
  BlasApi api{};
  lib.bind("cblas_sgemm", api.sgemm);
  lib.bind("openblas_set_num_threads", api.setThreads);
  lib.bind("openblas_get_num_threads", api.threads);
  if (!lib.error().empty())
    throw SystemError(
        fmt::format("the CPU trainer needs OpenBLAS: {} (Debian: apt-get install libopenblas0-pthread)", lib.error()));
  return api;
}

}  // namespace

const BlasApi& openblas() {
  static const BlasApi api = load();
  return api;
}

}  // namespace pf::scaling

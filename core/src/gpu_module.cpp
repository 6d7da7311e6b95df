// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/gpu_module.hpp"

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "pf/error.hpp"
#include "pf/shared_library.hpp"

namespace pf::gpu {
namespace {

namespace fs = std::filesystem;

// Written into the executable and the module by the same build (core/CMakeLists.txt); a module left over from
// another version would otherwise be called with class layouts it was not compiled for.
constexpr const char* kBuild = PF_GPU_MODULE_BUILD;

std::mutex& moduleMutex() {
  static std::mutex m;
  return m;
}

SharedLibrary& openedModule() {
  static SharedLibrary lib(modulePath());
  return lib;
}

std::string whyUnavailable() {
  const std::string path = modulePath();
  std::error_code ec;
  if (!fs::exists(path, ec))
    return "GPU support is not installed: there is no " + path +
           " (this preflight was built without CUDA and NCCL, or installed without its lib/preflight/ folder)";
  SharedLibrary& lib = openedModule();
  if (!lib.error().empty())
    // dlopen names the first library it could not find: say which ones the module needs.
    return "GPU support cannot load: " + lib.error() + " (preflight-gpu.so needs the CUDA runtime it was built " +
           "with, libcudart.so." + PF_GPU_CUDA_MAJOR + ", and NCCL, libnccl.so.2: install them, or add their " +
           "folder to LD_LIBRARY_PATH)";
  const char* (*build)() = nullptr;
  lib.bind("pf_gpu_module_build", build);
  if (!build) return path + " is not a Preflight GPU module (" + lib.error() + ")";
  if (std::string(build()) != kBuild)
    return path + " was built as preflight " + build() + " and this preflight as " + kBuild +
           ": install the two from the same build";
  return {};
}

}  // namespace

std::string modulePath() {
  if (const char* p = std::getenv("PREFLIGHT_GPU_MODULE"); p && *p) return p;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "preflight-gpu.so";
  return (self.parent_path().parent_path() / "lib" / "preflight" / "preflight-gpu.so").string();
}

std::string unavailableReason() {
  std::lock_guard lock(moduleMutex());
  static const std::string why = whyUnavailable();
  return why;
}

void* entryAddress(const char* symbol) {
  if (std::string why = unavailableReason(); !why.empty()) throw RuntimeFailure(why);
  std::lock_guard lock(moduleMutex());
  void* fn = nullptr;
  SharedLibrary& lib = openedModule();
  lib.bind(symbol, fn);
  if (!fn) throw RuntimeFailure(lib.error());
  return fn;
}

}  // namespace pf::gpu

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A library opened at run time by the one feature that uses it, instead of linked into `preflight`: linked, its
// load-time constructors run for every command (docs/performance.md, "start-up"). Opened with RTLD_NOW |
// RTLD_LOCAL and never closed: objects the library hands out (handles, fi_info lists) may live until exit.
#pragma once

#include <string>

namespace pf {

class SharedLibrary {
 public:
  /// Opens `soname` through the dynamic loader (LD_LIBRARY_PATH, the executable's RUNPATH, ld.so.cache).
  explicit SharedLibrary(std::string soname);

  /// Empty when the library opened and every bind() so far found its symbol; else the first reason, naming
  /// the library ("libfabric.so.1 not loadable: ...", "libcublas.so.13 lacks cublasSgemm_v2").
  const std::string& error() const { return error_; }
  const std::string& soname() const { return soname_; }

  /// Points `fn` at `symbol`; on a missing library or symbol leaves it null and records the reason.
  template <typename F>
  void bind(const char* symbol, F& fn) {
    fn = reinterpret_cast<F>(lookup(symbol));
  }

 private:
  void* lookup(const char* symbol);

  std::string soname_, error_;
  void* handle_ = nullptr;
};

}  // namespace pf

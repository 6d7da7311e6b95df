// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/shared_library.hpp"

#include <dlfcn.h>

#include <utility>

namespace pf {

SharedLibrary::SharedLibrary(std::string soname) : soname_(std::move(soname)) {
  handle_ = dlopen(soname_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* e = dlerror();
    error_ = soname_ + " not loadable: " + (e ? e : "not found");
  }
}

void* SharedLibrary::lookup(const char* symbol) {
  if (!handle_) return nullptr;
  void* p = dlsym(handle_, symbol);
  if (!p && error_.empty()) error_ = soname_ + " lacks " + symbol;
  return p;
}

}  // namespace pf

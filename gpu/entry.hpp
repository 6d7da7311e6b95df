// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// How preflight-gpu.so exports a feature. Each entry is a variable holding a function's address, typed from that
// function's declaration (the proxy in `preflight` binds the same decltype), with C linkage so dlsym finds it
// by its name in pf/gpu_module.hpp. The module links with -Bsymbolic: its own definitions of requireCudaDevice,
// queryGpuRuntime and the rest bind inside it, not to the proxies of the same name in the executable.
//
// One file in gpu/entries/ per part of the module, compiled only when the build has that part
// (gpu/CMakeLists.txt), so a build without OpenBLAS (no CUDA trainer) still makes a module with the rest.
#pragma once

#define PF_GPU_ENTRY(symbol, function) \
  extern "C" [[gnu::visibility("default"), gnu::used]] const decltype(&function) symbol = &function

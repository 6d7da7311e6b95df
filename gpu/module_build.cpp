// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The one symbol every preflight-gpu.so has, whichever parts it holds: the build it belongs to
// (pf/gpu_module.hpp refuses a module from another one).
extern "C" [[gnu::visibility("default")]] const char* pf_gpu_module_build() { return PF_GPU_MODULE_BUILD; }

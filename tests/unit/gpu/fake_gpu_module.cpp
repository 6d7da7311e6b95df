// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A stand-in for preflight-gpu.so that exports only its build string (PF_FAKE_BUILD), and no entry.
extern "C" [[gnu::visibility("default")]] const char* pf_gpu_module_build() { return PF_FAKE_BUILD; }

/* SPDX-License-Identifier: Apache-2.0
 * Copyright (c) 2026 The Preflight authors
 *
 * A stand-in NCCL net plugin for nccl_plugin_test.cpp: NCCL and the nccl probe find a plugin by its exported
 * symbols, so the symbols are all it needs. Built twice: with PF_COLLNET it also exports the CollNet entry point
 * that SHARP's plugin has. The values are never read (nothing calls into the plugin). */
const char ncclNetPlugin_v8[64] = "preflight test net plugin";
#ifdef PF_COLLNET
const char ncclCollNetPlugin_v8[64] = "preflight test collnet plugin";
#endif

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The gpu and p2p probes' entries (part pf_probes_cuda; gpu/entry.hpp).
#include "probes/gpu_runtime.hpp"

#include "gpu/entry.hpp"

PF_GPU_ENTRY(pf_gpu_runtime, pf::probes::queryGpuRuntime);
PF_GPU_ENTRY(pf_gpu_measure_p2p, pf::probes::measureP2p);

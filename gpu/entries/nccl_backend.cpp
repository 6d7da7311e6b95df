// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL collective backend's entry (part pf_backend_nccl; gpu/entry.hpp).
#include "collectives/nccl/nccl_backend.hpp"

#include "gpu/entry.hpp"

PF_GPU_ENTRY(pf_gpu_nccl_backend, pf::collectives::makeNcclBackend);

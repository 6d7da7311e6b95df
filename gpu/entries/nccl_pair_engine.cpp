// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL pair engine's entry (part pf_check_nccl; gpu/entry.hpp).
#include "check/nccl/nccl_pair_engine.hpp"

#include "gpu/entry.hpp"

PF_GPU_ENTRY(pf_gpu_nccl_pair_engine, pf::check::makeNcclPairEngine);

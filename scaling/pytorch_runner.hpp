// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight scale --framework pytorch`: the same model, batch and steps under PyTorch DDP (gloo, CPU), through
// the bundled scaling/pytorch/ddp_bench.py launched by torchrun once per world size. torchrun starts the ranks,
// so this path needs neither mpirun nor --local-ranks. The script prints one `PF_DDP_RESULT {json}` line (rank
// 0) with the fields of a native row (scale_runner.hpp), so the two frameworks land in the same result rows.
#pragma once

#include <string>
#include <vector>

#include "pf/result.hpp"
#include "scale_runner.hpp"

namespace pf::scaling {

/// A python that can `import torch`: `python3` on PATH first, then /usr/bin/python3 (a pyenv shim on PATH
/// often lacks the Debian python3-torch package). @throws UsageError naming every interpreter tried and the fix.
/// @param candidates the interpreters to try, in order ("python3" is looked up on PATH by the shell)
std::string findTorchPython(const std::vector<std::string>& candidates = {"python3", "/usr/bin/python3"});

/// ddp_bench.py: PF_DDP_SCRIPT (the source tree this binary was built from), else beside the binary, else
/// <prefix>/share/preflight/ next to its bin/. @throws UsageError listing the places looked at.
std::string findDdpScript();

/// One world size under torchrun (`python -m torch.distributed.run --standalone --nproc_per_node n`) with
/// `threadsPerRank` OpenMP/OpenBLAS threads per rank, on `device` ("cpu": gloo; "cuda": NCCL, a GPU per local
/// rank). Returns the row (ranks, step_us_p50/p90, throughput,
/// compute/comm/exposed, equality), plus "framework": "pytorch" and "torch": version.
/// @throws RuntimeFailure (exit 3) with the launcher's output tail when the run fails or prints no result.
Json runPytorchWorldSize(const ScaleOptions& opt, int n, const std::string& python, const std::string& script,
                         int threadsPerRank, const std::string& device);

/// The one-line result the script prints, found in torchrun's (possibly "[default0]:"-prefixed) output.
/// @returns a null Json when no such line exists. Exposed for unit tests.
Json parseDdpOutput(const std::string& output);

}  // namespace pf::scaling

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A stand-in preflight-gpu.so (test only) whose GPU count differs by rank, as on a job where one node's CUDA sees
// fewer GPUs than the node has ranks: PF_STANDIN_GPUS_BY_RANK="2,1" gives world rank 0 two GPUs and rank 1 one
// (the rank from Open MPI's OMPI_COMM_WORLD_RANK; a process outside the job gets the first entry); a count of 0
// refuses as the real module does (UsageError "no CUDA device: ..."). Running a world
// size fails loudly, so a test can tell a command that refused from one that ran.
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_runner.hpp"
#include "pf/environment.hpp"
#include "pf/error.hpp"

namespace {

int gpusOfThisRank() {
  const char* spec = std::getenv("PF_STANDIN_GPUS_BY_RANK");
  const char* rankVar = std::getenv("OMPI_COMM_WORLD_RANK");
  std::vector<int> counts;
  std::stringstream in(spec ? spec : "1");
  for (std::string item; std::getline(in, item, ',');) counts.push_back(std::stoi(item));
  const size_t rank = rankVar ? static_cast<size_t>(std::stoi(rankVar)) : 0;
  const int count = counts.at(rank < counts.size() ? rank : counts.size() - 1);
  if (count == 0)  // as the real requireCudaDevice says it
    throw pf::UsageError("no CUDA device: none is usable on " + pf::hostName() + " (stand-in: rank " +
                         std::to_string(rank) + " sees none); use --device cpu");
  return count;
}

pf::Json refuseToRun(const pf::scaling::ScaleOptions&, int n, pf::Bootstrap&, int) {
  throw pf::RuntimeFailure("the stand-in module was asked to run world size " + std::to_string(n));
}

}  // namespace

extern "C" [[gnu::visibility("default")]] const char* pf_gpu_module_build() { return PF_FAKE_BUILD; }
extern "C" [[gnu::visibility("default")]] const decltype(&pf::scaling::requireCudaDevice) pf_gpu_require_cuda_device =
    &gpusOfThisRank;
extern "C" [[gnu::visibility("default")]] const decltype(&pf::scaling::runCudaWorldSize) pf_gpu_cuda_world_size =
    &refuseToRun;

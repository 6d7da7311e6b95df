// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: launcher detection over an arbitrary environment. The bytes are an env file (KEY=VALUE
// lines, as --env-file reads them); what Environment::fromFile accepts goes through detectJobEnv (Open MPI,
// Slurm, PMIx, torchrun, TF_CONFIG, CLUSTER_SPEC, SageMaker, Azure), its JSON and the torch exports. Each step
// must return or throw pf::UsageError; anything else is a bug. Seeds: tests/fixtures/env.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input_file.hpp"
#include "launch_env/job_env.hpp"
#include "pf/environment.hpp"
#include "pf/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pf::Environment env;
  try {
    env = pf::Environment::fromFile(pf::fuzz::writeInput("job.env", data, size).string());
  } catch (const pf::UsageError&) {
    return 0;
  }
  try {
    pf::probes::JobEnv job = pf::probes::detectJobEnv(env);
    (void)pf::probes::toJson(job).dump();  // strict, as writeReport dumps
    (void)pf::probes::exportTorch(job);
  } catch (const pf::UsageError&) {
  }
  return 0;
}

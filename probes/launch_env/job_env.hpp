// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The launch environment, normalised: rank, local rank, world size, local world size, node rank, node count,
// master address and port, from whichever launchers set them. Process launchers (Open MPI, PMIx, MPICH/Hydra,
// Slurm, torchrun) come from core's detectLauncher(); node-level cluster descriptions layered on top of them
// are read here: Azure ML / Azure Batch (AZ_BATCH_MASTER_NODE, AZ_BATCHAI_MPI_MASTER_NODE, AZ_BATCH_HOST_LIST),
// Vertex AI (CLUSTER_SPEC), TensorFlow (TF_CONFIG) and SageMaker (SM_HOSTS, SM_CURRENT_HOST). Every field keeps
// the variable it came from, so a wrong value can be traced to its launcher.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pf/environment.hpp"
#include "pf/launcher_env.hpp"
#include "pf/result.hpp"

namespace pf::probes {

struct JobEnv {
  LauncherEnv process;                 ///< what core's detectLauncher() found (process-level)
  std::vector<std::string> launchers;  ///< every launcher recognised, process launcher first
  std::optional<int> nodeRank, nodeCount;
  std::optional<std::string> masterAddr;
  std::optional<int> masterPort;
  std::vector<std::string> hosts;  ///< the job's nodes when a launcher lists them
  Json sources = Json::object();   ///< field -> the variable (or rule) it came from
  std::vector<std::string> notes;  ///< how ambiguous values were settled
};

/// Reads every launcher's variables from `env`.
/// @throws UsageError naming the variable for malformed JSON (CLUSTER_SPEC, TF_CONFIG, SM_HOSTS) or numbers,
///         or for a host name or master address that is not valid UTF-8 (it could not go into a document)
JobEnv detectJobEnv(const Environment& env);

Json toJson(const JobEnv& j);

/// Expands the first host of a Slurm hostlist ("gpu[003-010,012],cpu1" -> "gpu003").
std::string firstSlurmHost(const std::string& hostlist);

/// `export NAME=value` lines for torch.distributed (MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE, LOCAL_RANK,
/// LOCAL_WORLD_SIZE, NODE_RANK, NNODES). @throws UsageError when the master address cannot be determined.
std::string exportTorch(const JobEnv& j);

}  // namespace pf::probes

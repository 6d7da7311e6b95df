// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/launcher_env.hpp"

#include <fmt/format.h>

#include "pf/error.hpp"
#include "pf/json_field.hpp"

namespace pf {

namespace {

// Reads an integer variable; present-but-garbage is an error, absent is nullopt.
std::optional<int> intVar(const Environment& env, const std::string& key) {
  auto raw = env.get(key);
  if (!raw) return std::nullopt;
  auto v = env.getInt(key);
  if (!v) throw UsageError(fmt::format("environment variable {}='{}' is not an integer", key, *raw));
  return static_cast<int>(*v);
}

bool fill(LauncherEnv& l, const Environment& env, const char* name, const char* rank, const char* size,
          const char* localRank, const char* localSize) {
  auto r = intVar(env, rank);
  auto s = intVar(env, size);
  if (!r || !s) return false;
  l.launcher = name;
  l.rank = *r;
  l.world_size = *s;
  l.local_rank = intVar(env, localRank).value_or(0);
  l.local_world_size = intVar(env, localSize).value_or(1);
  return true;
}

}  // namespace

LauncherEnv detectLauncher(const Environment& env) {
  LauncherEnv l;
  if (fill(l, env, "openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
           "OMPI_COMM_WORLD_LOCAL_SIZE")) {
    l.spawned = true;
    // OMPI_COMM_WORLD_NODE_RANK is the rank among processes of the same node type, not the node index;
    // the node index is not exported by Open MPI, so leave node_rank unset rather than guess.
  } else if (fill(l, env, "pmix", "PMIX_RANK", "PMIX_SIZE", "PMIX_LOCAL_RANK", "PMIX_LOCAL_SIZE")) {
    l.spawned = true;
  } else if (fill(l, env, "mpich", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "MPI_LOCALNRANKS")) {
    l.spawned = true;
  } else if (fill(l, env, "slurm", "SLURM_PROCID",
                  env.has("SLURM_STEP_NUM_TASKS") ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS", "SLURM_LOCALID",
                  "SLURM_NTASKS_PER_NODE")) {
    // SLURM_NTASKS describes the allocation; only inside an srun step (SLURM_STEP_NUM_TASKS) was this process
    // started as one of those tasks. A batch script running us directly is a single process.
    l.node_rank = intVar(env, "SLURM_NODEID");
    l.spawned = env.has("SLURM_STEP_NUM_TASKS");
  } else if (fill(l, env, "torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE")) {
    l.node_rank = intVar(env, "GROUP_RANK");
  }
  // Under srun --mpi=pmix only PMIX_RANK is set per rank; the world size then comes from Slurm.
  if (l.launcher == "none" && env.has("PMIX_RANK") && env.has("SLURM_NTASKS")) {
    l.launcher = "pmix";
    l.rank = *intVar(env, "PMIX_RANK");
    l.world_size = *intVar(env, "SLURM_NTASKS");
    l.local_rank = intVar(env, "SLURM_LOCALID").value_or(0);
    l.spawned = true;
  }
  if (auto n = intVar(env, "SLURM_JOB_NUM_NODES")) l.node_count = n;
  if (!l.node_count) l.node_count = intVar(env, "SLURM_NNODES");
  if (!l.node_count) l.node_count = intVar(env, "GROUP_WORLD_SIZE");  // torchrun: number of agents (nodes)
  if (l.local_world_size > 0 && l.world_size % l.local_world_size == 0 && !l.node_count && l.launcher != "none")
    l.node_count = l.world_size / l.local_world_size;
  if (auto a = env.get("MASTER_ADDR")) l.master_addr = a;
  l.master_port = intVar(env, "MASTER_PORT");
  return l;
}

Json toJson(const LauncherEnv& l) {
  return Json{{"launcher", l.launcher},
              {"rank", l.rank},
              {"world_size", l.world_size},
              {"local_rank", l.local_rank},
              {"local_world_size", l.local_world_size},
              {"node_rank", jsonOrNull(l.node_rank)},
              {"node_count", jsonOrNull(l.node_count)},
              {"master_addr", jsonOrNull(l.master_addr)},
              {"master_port", jsonOrNull(l.master_port)},
              {"spawned", l.spawned}};
}

}  // namespace pf

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Who started us, normalised. Launchers spell rank and world size differently (Open MPI's OMPI_COMM_WORLD_*,
// PMIx, Slurm's SLURM_*, MPICH/Hydra's PMI_*, torchrun's RANK/WORLD_SIZE); every command reads them through
// detectLauncher() so that the pitfalls (OMPI_COMM_WORLD_NODE_RANK is *not* the node index, Slurm+pmix has
// no OMPI_* variables) are handled once.
#pragma once

#include <optional>
#include <string>

#include "pf/environment.hpp"
#include "pf/result.hpp"

namespace pf {

struct LauncherEnv {
  std::string launcher = "none";  ///< openmpi, pmix, slurm, mpich, torchrun, none
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  int local_world_size = 1;
  std::optional<int> node_rank;  ///< index of this node among the job's nodes, when the launcher says
  std::optional<int> node_count;
  std::optional<std::string> master_addr;
  std::optional<int> master_port;
  /// True when the launcher itself started this process as one of world_size ranks of an MPI-style job
  /// (mpirun, an srun step, Hydra). False for torchrun-style variables, which an MPI library never sees, and for
  /// a Slurm batch script outside any srun step.
  bool spawned = false;

  /// True when some launcher started more than one rank (an MPI library must then see the same world).
  bool multiRank() const { return world_size > 1; }
};

/// Reads the launcher variables from `env`. Precedence: Open MPI, PMIx, MPICH/Hydra, Slurm, torchrun.
/// @throws UsageError when a variable is present but not a number (names the variable).
LauncherEnv detectLauncher(const Environment& env);

Json toJson(const LauncherEnv& l);

}  // namespace pf

// SPDX-License-Identifier: Apache-2.0
#include "pf/launcher_env.hpp"

#include <gtest/gtest.h>

#include "pf/error.hpp"

namespace pf {
namespace {

TEST(LauncherEnv, NoLauncher) {
  LauncherEnv l = detectLauncher(Environment(std::map<std::string, std::string>{{"HOME", "/root"}}));
  EXPECT_EQ(l.launcher, "none");
  EXPECT_EQ(l.world_size, 1);
  EXPECT_FALSE(l.spawned);
}

TEST(LauncherEnv, OpenMpiAsMpirunSetsIt) {
  // Variables as Open MPI 4.1 mpirun sets them for rank 3 of 4 on 2 nodes.
  Environment env({{"OMPI_COMM_WORLD_RANK", "3"},
                   {"OMPI_COMM_WORLD_SIZE", "4"},
                   {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                   {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"},
                   {"OMPI_COMM_WORLD_NODE_RANK", "1"},
                   {"OMPI_UNIVERSE_SIZE", "4"},
                   {"PMIX_RANK", "3"},
                   {"PMIX_NAMESPACE", "prterun-x-1@1"}});
  LauncherEnv l = detectLauncher(env);
  EXPECT_EQ(l.launcher, "openmpi");
  EXPECT_EQ(l.rank, 3);
  EXPECT_EQ(l.world_size, 4);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_EQ(l.local_world_size, 2);
  EXPECT_TRUE(l.spawned);
  // OMPI_COMM_WORLD_NODE_RANK is not the node index: it must not be read as one.
  EXPECT_FALSE(l.node_rank.has_value());
  EXPECT_EQ(l.node_count, 2);
}

TEST(LauncherEnv, SrunWithPmixHasNoOmpiVariables) {
  Environment env({{"PMIX_RANK", "5"},
                   {"SLURM_NTASKS", "8"},
                   {"SLURM_PROCID", "5"},
                   {"SLURM_STEP_NUM_TASKS", "8"},
                   {"SLURM_LOCALID", "1"},
                   {"SLURM_NODEID", "2"},
                   {"SLURM_JOB_NUM_NODES", "4"}});
  LauncherEnv l = detectLauncher(env);
  EXPECT_EQ(l.rank, 5);
  EXPECT_EQ(l.world_size, 8);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_TRUE(l.spawned);
  EXPECT_EQ(l.node_count, 4);
}

TEST(LauncherEnv, SlurmBatchScriptIsNotAStep) {
  Environment env({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "16"}, {"SLURM_NODEID", "0"}, {"SLURM_JOB_NUM_NODES", "2"}});
  LauncherEnv l = detectLauncher(env);
  EXPECT_EQ(l.launcher, "slurm");
  EXPECT_FALSE(l.spawned);
}

TEST(LauncherEnv, Torchrun) {
  Environment env({{"RANK", "1"},
                   {"WORLD_SIZE", "2"},
                   {"LOCAL_RANK", "1"},
                   {"LOCAL_WORLD_SIZE", "2"},
                   {"GROUP_RANK", "0"},
                   {"MASTER_ADDR", "10.0.0.1"},
                   {"MASTER_PORT", "29500"}});
  LauncherEnv l = detectLauncher(env);
  EXPECT_EQ(l.launcher, "torchrun");
  EXPECT_FALSE(l.spawned);
  EXPECT_EQ(*l.master_addr, "10.0.0.1");
  EXPECT_EQ(*l.master_port, 29500);
  EXPECT_EQ(*l.node_rank, 0);
}

TEST(LauncherEnv, GarbageNumberIsAUsageError) {
  EXPECT_THROW(detectLauncher(Environment({{"OMPI_COMM_WORLD_RANK", "x"}, {"OMPI_COMM_WORLD_SIZE", "2"}})), UsageError);
}

}  // namespace
}  // namespace pf

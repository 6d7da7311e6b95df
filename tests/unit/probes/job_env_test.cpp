// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight env`'s normalisation and checks on real launcher variable sets (tests/fixtures/env).
#include "launch_env/job_env.hpp"

#include <gtest/gtest.h>

#include "launch_env/env_checks.hpp"
#include "pf/error.hpp"
#include "temp_tree.hpp"

namespace pf::probes {
namespace {

using Vars = std::map<std::string, std::string>;

JobEnv load(const std::string& name) { return detectJobEnv(Environment::fromFile(PF_FIXTURES "/env/" + name)); }

const Result& byKey(const std::vector<Result>& rs, const std::string& key) {
  for (const auto& r : rs)
    if (r.key == key) return r;
  throw std::runtime_error("no result " + key);
}

TEST(JobEnv, OpenMpiCapturedHere) {
  JobEnv j = load("openmpi-4.1.4-np2-rank1.env");
  EXPECT_EQ(j.process.launcher, "openmpi");
  EXPECT_EQ(j.process.rank, 1);
  EXPECT_EQ(j.process.world_size, 2);
  EXPECT_EQ(j.process.local_rank, 1);
  EXPECT_EQ(j.nodeCount, 1);
  EXPECT_EQ(j.nodeRank, 0);  // OMPI_COMM_WORLD_NODE_RANK is 1 here and must not be taken for the node index
  EXPECT_EQ(j.masterAddr, "192.0.2.2");
}

TEST(JobEnv, SlurmTorchrunMpich) {
  JobEnv s = load("slurm-srun-2x4-rank5.env");
  EXPECT_EQ(s.process.launcher, "slurm");
  EXPECT_EQ(s.process.rank, 5);
  EXPECT_EQ(s.nodeRank, 1);
  EXPECT_EQ(s.nodeCount, 2);
  EXPECT_EQ(s.masterAddr, "gpu003");
  JobEnv px = load("slurm-pmix-2x2-rank3.env");  // srun --mpi=pmix: Slurm's variables, no OMPI_*
  EXPECT_EQ(px.process.rank, 3);
  EXPECT_EQ(px.process.world_size, 4);
  EXPECT_TRUE(px.process.spawned);
  EXPECT_EQ(px.nodeRank, 1);
  EXPECT_EQ(px.masterAddr, "node1");
  JobEnv t = load("torchrun-1.13-nproc2-rank1.env");
  EXPECT_EQ(t.process.launcher, "torchrun");
  EXPECT_EQ(t.masterAddr, "127.0.0.1");
  EXPECT_EQ(t.masterPort, 29500);
  EXPECT_EQ(t.nodeRank, 0);
  JobEnv m = load("mpich-hydra-np4-rank3.env");
  EXPECT_EQ(m.process.launcher, "mpich");
  EXPECT_EQ(m.process.local_world_size, 2);
  EXPECT_EQ(m.nodeRank, 1);
}

TEST(JobEnv, CloudPlatforms) {
  JobEnv az = load("azureml-mpi-2x8-rank9.env");
  EXPECT_EQ(az.launchers, (std::vector<std::string>{"openmpi", "azureml"}));
  EXPECT_EQ(az.masterAddr, "10.0.0.4");
  EXPECT_EQ(az.masterPort, 6105);  // the address from AZ_BATCHAI_MPI_MASTER_NODE, the port from AZ_BATCH_MASTER_NODE
  EXPECT_EQ(az.nodeCount, 2);
  EXPECT_EQ(az.nodeRank, 1);
  JobEnv v = load("vertex-3node-worker1.env");
  EXPECT_EQ(v.nodeRank, 2);
  EXPECT_EQ(v.nodeCount, 3);
  EXPECT_EQ(v.masterAddr, "cmle-training-workerpool0-ab12cd34ef-0");
  EXPECT_EQ(v.masterPort, 2222);
  JobEnv tf = load("tf-config-chief-2workers-worker1.env");
  EXPECT_EQ(tf.nodeRank, 2);  // chief, worker 0, worker 1; the ps is not a training node
  EXPECT_EQ(tf.nodeCount, 3);
  JobEnv sm = load("sagemaker-2node-algo2.env");
  EXPECT_EQ(sm.nodeRank, 1);
  EXPECT_EQ(sm.masterAddr, "algo-1");
}

TEST(JobEnv, MalformedJsonIsAUsageErrorNamingTheVariable) {
  try {
    load("vertex-malformed.env");
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("CLUSTER_SPEC is not valid JSON"), std::string::npos) << e.what();
  }
  EXPECT_THROW(detectJobEnv(Environment(Vars{{"TF_CONFIG", R"({"cluster": []})"}})), UsageError);
  EXPECT_THROW(detectJobEnv(Environment(Vars{{"TF_CONFIG", R"({"cluster": {"worker": ["h:1"]}, "task": )"}})),
               UsageError);
  EXPECT_THROW(detectJobEnv(Environment(Vars{{"SM_HOSTS", "algo-1,algo-2"}})), UsageError);
  // A number too large for a double (nlohmann's out_of_range, not a parse_error; as fuzz_report found).
  EXPECT_THROW(detectJobEnv(Environment(Vars{{"TF_CONFIG", R"({"cluster": {"worker": ["h:1"]}, "x": 1e999})"}})),
               UsageError);
  EXPECT_THROW(
      detectJobEnv(Environment(
          Vars{{"CLUSTER_SPEC", R"({"cluster":{"workerpool0":["a:1"]},"task":{"type":"workerpool0","index":3}})"}})),
      UsageError);
}

// Found by tests/fuzz/readers (fuzz_launch_env; the input is its corpus's slurm-nodelist-not-utf8.env): a
// host name that is not UTF-8 reached the document writer, whose exception ended the process.
TEST(JobEnv, HostThatIsNotUtf8IsAUsageErrorNamingTheVariable) {
  Vars slurm{{"SLURM_PROCID", "0"},
             {"SLURM_NTASKS", "2"},
             {"SLURM_LOCALID", "0"},
             {"SLURM_NTASKS_PER_NODE", "1"},
             {"SLURM_JOB_NODELIST", "node\xf3[1-2]"}};
  try {
    detectJobEnv(Environment(slurm));
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("SLURM_JOB_NODELIST"), std::string::npos) << e.what();
  }
  EXPECT_THROW(detectJobEnv(Environment(Vars{{"AZ_BATCH_MASTER_NODE", "h1:6000"}, {"AZ_BATCH_HOST_LIST", "h1,\xff"}})),
               UsageError);
  slurm["SLURM_JOB_NODELIST"] = "node[1-2]";
  EXPECT_EQ(detectJobEnv(Environment(slurm)).masterAddr, "node1");
}

TEST(JobEnv, ExportTorchLines) {
  std::string s = exportTorch(load("slurm-srun-2x4-rank5.env"));
  EXPECT_EQ(s,
            "export MASTER_ADDR=gpu003\nexport MASTER_PORT=29500\nexport RANK=5\nexport WORLD_SIZE=8\n"
            "export LOCAL_RANK=1\nexport LOCAL_WORLD_SIZE=4\nexport NODE_RANK=1\nexport NNODES=2\n");
  std::string v = exportTorch(load("vertex-3node-worker1.env"));
  EXPECT_NE(v.find("export RANK=2\nexport WORLD_SIZE=3\n"), std::string::npos) << v;
  EXPECT_THROW(exportTorch(load("mpich-hydra-np4-rank3.env")), UsageError);
}

TEST(JobEnv, SlurmHostlistFirstHost) {
  EXPECT_EQ(firstSlurmHost("gpu[003-010,012],cpu1"), "gpu003");
  EXPECT_EQ(firstSlurmHost("node7,node8"), "node7");
  EXPECT_EQ(firstSlurmHost("a[1-2]"), "a1");
}

TEST(EnvChecks, NodeRankPitfallFails) {
  auto env = Environment::fromFile(PF_FIXTURES "/env/ompi-node-rank-pitfall.env");
  test::TempTree t;
  auto rs = checkJobEnv(detectJobEnv(env), SystemView(t.root(), env), {false});
  const Result& nr = byKey(rs, "env.node_rank");
  EXPECT_EQ(nr.status, Status::kFail);
  EXPECT_NE(nr.message.find("OMPI_COMM_WORLD_NODE_RANK"), std::string::npos);
  EXPECT_EQ(byKey(rs, "env.master").status, Status::kSkipped);
}

TEST(EnvChecks, RanksVersusGpus) {
  auto env = Environment::fromFile(PF_FIXTURES "/env/slurm-srun-2x4-rank5.env");  // 4 per node, 2 nodes
  test::TempTree t;
  for (int g = 0; g < 4; ++g)
    t.file("/proc/driver/nvidia/gpus/0000:0" + std::to_string(g) + ":00.0/information", "Model: X");
  EXPECT_EQ(byKey(checkJobEnv(detectJobEnv(env), SystemView(t.root(), env), {false}), "env.gpus").status,
            Status::kPass);
  env.set("CUDA_VISIBLE_DEVICES", "0,1");
  const Result two = byKey(checkJobEnv(detectJobEnv(env), SystemView(t.root(), env), {false}), "env.gpus");
  EXPECT_EQ(two.status, Status::kFail);
  EXPECT_NE(two.message.find("4 ranks on this node but 2 GPU(s)"), std::string::npos) << two.message;
  env.set("CUDA_VISIBLE_DEVICES", "0,1,2,3");
  t.file("/proc/driver/nvidia/gpus/0000:09:00.0/information", "Model: X");
  t.file("/proc/driver/nvidia/gpus/0000:0a:00.0/information", "Model: X");
  env.set("CUDA_VISIBLE_DEVICES", "0,1,2,3,4,5");
  const Result idle = byKey(checkJobEnv(detectJobEnv(env), SystemView(t.root(), env), {false}), "env.gpus");
  EXPECT_EQ(idle.status, Status::kWarn);
  EXPECT_NE(idle.message.find("some GPUs stay idle"), std::string::npos) << idle.message;
}

TEST(EnvChecks, MasterThatDoesNotResolveFails) {
  Environment env(Vars{{"MASTER_ADDR", "no-such-host.invalid"}, {"MASTER_PORT", "29511"}});
  test::TempTree t;
  const Result m = byKey(checkJobEnv(detectJobEnv(env), SystemView(t.root(), env), {true, 500}), "env.master");
  EXPECT_EQ(m.status, Status::kFail);
  EXPECT_NE(m.message.find("does not resolve"), std::string::npos) << m.message;
}

TEST(EnvChecks, LocalMasterPortFreeThenInUse) {
  Environment env(Vars{{"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", "0"}});
  test::TempTree t;
  // Port 0 always binds: the master check passes on the master itself.
  EXPECT_EQ(byKey(checkJobEnv(detectJobEnv(env), SystemView(t.root(), env), {true, 500}), "env.master").status,
            Status::kPass);
}

}  // namespace
}  // namespace pf::probes

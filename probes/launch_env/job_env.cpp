// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "job_env.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>

#include "cluster_spec.hpp"
#include "pf/error.hpp"
#include "pf/json_field.hpp"
#include "pf/utf8.hpp"

namespace pf::probes {
namespace {

void setMaster(JobEnv& j, const std::string& hostPort, const std::string& source) {
  auto [host, port] = splitHostPort(hostPort);
  if (host.empty()) return;
  // An explicit MASTER_ADDR (or an earlier, more specific source) wins; a later source naming the same host
  // may still supply the port (AZ_BATCHAI_MPI_MASTER_NODE has none, AZ_BATCH_MASTER_NODE has "ip:port").
  if (!j.masterAddr) {
    j.masterAddr = host;
    j.sources["master_addr"] = source;
  }
  if (port && !j.masterPort && *j.masterAddr == host) {
    j.masterPort = port;
    j.sources["master_port"] = source;
  }
}

void setNodes(JobEnv& j, const ClusterNodes& c, const std::string& launcher, const std::string& source) {
  j.launchers.push_back(launcher);
  if (!j.nodeRank && c.nodeRank) {
    j.nodeRank = c.nodeRank;
    j.sources["node_rank"] = source;
  }
  if (!j.nodeCount && !c.hosts.empty()) {
    j.nodeCount = static_cast<int>(c.hosts.size());
    j.sources["node_count"] = source;
  }
  if (j.hosts.empty()) j.hosts = c.hosts;
  if (!c.hosts.empty()) setMaster(j, c.hosts.front(), source + " (first training node)");
  if (!c.nodeRank)
    j.notes.push_back(fmt::format("{}: this task ('{}') is not one of the training nodes", source, c.role));
}

/// Slurm, Azure ML and Open MPI masters, after the explicit MASTER_ADDR and the JSON cluster descriptions.
void fallbackMasters(JobEnv& j, const Environment& env) {
  if (auto v = env.get("AZ_BATCHAI_MPI_MASTER_NODE")) setMaster(j, *v, "AZ_BATCHAI_MPI_MASTER_NODE");
  if (auto v = env.get("AZ_BATCH_MASTER_NODE")) setMaster(j, *v, "AZ_BATCH_MASTER_NODE");
  if (auto v = env.get("SLURM_JOB_NODELIST"); v && j.process.launcher == "slurm")
    setMaster(j, firstSlurmHost(*v), "SLURM_JOB_NODELIST (first node)");
  // Open MPI exports no master; mpirun's own address is where rank 0 runs unless mpirun sits on a login node.
  if (auto v = env.get("OMPI_MCA_orte_hnp_uri"); v && !j.masterAddr) {
    auto at = v->find("tcp://");
    if (at != std::string::npos) {
      std::string hp = v->substr(at + 6, v->find(';', at) - at - 6);
      setMaster(j, splitHostPort(hp).first, "OMPI_MCA_orte_hnp_uri (mpirun's node)");
      j.notes.push_back("master address is mpirun's node: correct when mpirun runs on the first compute node");
    }
  }
}

/// Values copied from the environment go into the result document, which is UTF-8 JSON: a value that is not
/// UTF-8 (a mangled env file, a Latin-1 host name) is a malformed variable, not a crash when the document is
/// written. The test is the JSON writer's own.
void requireUtf8(const JobEnv& j) {
  auto check = [&](const std::string& s, const std::string& field) {
    if (!isValidUtf8(s))
      throw UsageError(fmt::format("{} (from {}) is not valid UTF-8", field,
                                   j.sources.value(field, std::string("the environment"))));
  };
  if (j.masterAddr) check(*j.masterAddr, "master_addr");
  for (const auto& h : j.hosts) check(h, "hosts");
  for (const auto& n : j.notes) check(n, "notes");
}

}  // namespace

std::string firstSlurmHost(const std::string& hostlist) {
  std::string first = hostlist.substr(0, hostlist.find(','));
  auto open = hostlist.find('[');
  if (open == std::string::npos || open > first.size()) return first;
  // "gpu[003-010,012]": the prefix plus the first number of the first range, zero padding kept.
  std::string prefix = hostlist.substr(0, open);
  size_t end = open + 1;
  while (end < hostlist.size() && std::isdigit(static_cast<unsigned char>(hostlist[end]))) ++end;
  return prefix + hostlist.substr(open + 1, end - open - 1);
}

JobEnv detectJobEnv(const Environment& env) {
  JobEnv j;
  j.process = detectLauncher(env);
  if (j.process.launcher != "none") j.launchers.push_back(j.process.launcher);
  if (j.process.node_rank) {
    j.nodeRank = j.process.node_rank;
    j.sources["node_rank"] = j.process.launcher == "slurm" ? "SLURM_NODEID" : "GROUP_RANK";
  }
  if (auto nr = env.getInt("NODE_RANK"); nr && !j.nodeRank && j.process.launcher != "openmpi") {
    j.nodeRank = static_cast<int>(*nr);
    j.sources["node_rank"] = "NODE_RANK";
  }
  if (j.process.node_count) {
    j.nodeCount = j.process.node_count;
    j.sources["node_count"] = env.has("SLURM_JOB_NUM_NODES") ? "SLURM_JOB_NUM_NODES"
                              : env.has("GROUP_WORLD_SIZE")  ? "GROUP_WORLD_SIZE"
                                                             : "world size / local world size";
  }
  // Open MPI knows its node count (the derived world / local size assumes equal ranks on every node).
  if (auto n = env.getInt("OMPI_MCA_orte_num_nodes"); n && j.process.launcher == "openmpi") {
    j.nodeCount = static_cast<int>(*n);
    j.sources["node_count"] = "OMPI_MCA_orte_num_nodes";
  }
  if (j.process.master_addr) {
    j.masterAddr = j.process.master_addr;
    j.sources["master_addr"] = "MASTER_ADDR";
  }
  if (j.process.master_port) {
    j.masterPort = j.process.master_port;
    j.sources["master_port"] = "MASTER_PORT";
  }
  if (auto v = env.get("CLUSTER_SPEC")) setNodes(j, parseClusterSpec(*v, "CLUSTER_SPEC"), "vertex", "CLUSTER_SPEC");
  if (auto v = env.get("TF_CONFIG")) setNodes(j, parseTfConfig(*v, "TF_CONFIG"), "tf_config", "TF_CONFIG");
  if (auto v = env.get("SM_HOSTS"))
    setNodes(j, parseSageMaker(*v, env.getOr("SM_CURRENT_HOST", "")), "sagemaker", "SM_HOSTS/SM_CURRENT_HOST");
  if (env.has("AZ_BATCH_MASTER_NODE") || env.has("AZ_BATCHAI_MPI_MASTER_NODE")) {
    j.launchers.push_back("azureml");
    if (auto hosts = env.get("AZ_BATCH_HOST_LIST"); hosts && j.hosts.empty()) {
      for (size_t s = 0; s <= hosts->size();) {
        size_t c = hosts->find(',', s);
        if (c == std::string::npos) c = hosts->size();
        if (c > s) j.hosts.push_back(hosts->substr(s, c - s));
        s = c + 1;
      }
      if (!j.nodeCount) {
        j.nodeCount = static_cast<int>(j.hosts.size());
        j.sources["node_count"] = "AZ_BATCH_HOST_LIST";
      }
    }
  }
  fallbackMasters(j, env);
  // A node rank derived from a process launcher that places ranks node by node (block mapping).
  if (!j.nodeRank && j.process.launcher != "none" && j.process.local_world_size > 0 && j.nodeCount) {
    j.nodeRank = j.process.rank / j.process.local_world_size;
    j.sources["node_rank"] = "rank / local world size (assumes ranks are placed node by node)";
  }
  requireUtf8(j);
  return j;
}

Json toJson(const JobEnv& j) {
  return Json{{"launchers", j.launchers},
              {"rank", j.process.rank},
              {"world_size", j.process.world_size},
              {"local_rank", j.process.local_rank},
              {"local_world_size", j.process.local_world_size},
              {"node_rank", jsonOrNull(j.nodeRank)},
              {"node_count", jsonOrNull(j.nodeCount)},
              {"master_addr", jsonOrNull(j.masterAddr)},
              {"master_port", jsonOrNull(j.masterPort)},
              {"hosts", j.hosts},
              {"sources", j.sources},
              {"notes", j.notes}};
}

std::string exportTorch(const JobEnv& j) {
  if (!j.masterAddr)
    throw UsageError(
        "cannot export torch variables: no master address (set MASTER_ADDR, or launch under a launcher "
        "that names one: Slurm, Azure ML, Vertex AI, TF_CONFIG, SageMaker, mpirun)");
  const int port = j.masterPort.value_or(29500);  // torchrun's default; every rank derives the same value
  std::string out = fmt::format("export MASTER_ADDR={}\nexport MASTER_PORT={}\n", *j.masterAddr, port);
  // A platform that starts one process per node (Vertex AI, TF_CONFIG, SageMaker without a process launcher):
  // that process is rank NODE_RANK of NNODES; a per-GPU launcher (torchrun --nnodes) takes over from there.
  if (j.process.launcher == "none" && j.nodeRank && j.nodeCount) {
    out += "# one process per node; for one per GPU run torchrun --nnodes=$NNODES --node_rank=$NODE_RANK\n";
    out += fmt::format("export RANK={}\nexport WORLD_SIZE={}\n", *j.nodeRank, *j.nodeCount);
  } else {
    out += fmt::format("export RANK={}\nexport WORLD_SIZE={}\n", j.process.rank, j.process.world_size);
  }
  out += fmt::format("export LOCAL_RANK={}\nexport LOCAL_WORLD_SIZE={}\n", j.process.local_rank,
                     j.process.local_world_size);
  if (j.nodeRank) out += fmt::format("export NODE_RANK={}\n", *j.nodeRank);
  if (j.nodeCount) out += fmt::format("export NNODES={}\n", *j.nodeCount);
  return out;
}

}  // namespace pf::probes

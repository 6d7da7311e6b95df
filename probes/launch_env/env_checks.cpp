// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "env_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "probe.hpp"
#include "probe_util.hpp"
#include "rendezvous.hpp"

namespace pf::probes {
namespace {

Result make(const std::string& check) {
  Result r;
  r.key = "env." + check;
  r.kind = Kind::kEnv;
  return r;
}

Result launcherResult(const JobEnv& j) {
  Result r = make("launcher");
  r.params = toJson(j);
  if (j.launchers.empty()) {
    r.status = Status::kSkipped;
    r.message = "no launcher variables: a single process (rank 0 of 1)";
    return r;
  }
  r.message =
      fmt::format("{}: rank {} of {}, local rank {} of {}, node {} of {}, master {}:{}", fmt::join(j.launchers, "+"),
                  j.process.rank, j.process.world_size, j.process.local_rank, j.process.local_world_size,
                  j.nodeRank ? std::to_string(*j.nodeRank) : "?", j.nodeCount ? std::to_string(*j.nodeCount) : "?",
                  j.masterAddr.value_or("?"), j.masterPort ? std::to_string(*j.masterPort) : "?");
  for (const auto& [field, src] : j.sources.items()) addEvidence(r, field, src, "launcher variables");
  return r;
}

Result gpuResult(const JobEnv& j, const SystemView& sys) {
  Result r = make("gpus");
  auto gpus = visibleGpus(sys);
  if (!gpus) {
    r.status = Status::kSkipped;
    r.message =
        "no NVIDIA GPU on this node (looked in /proc/driver/nvidia/gpus and /dev/nvidia*): ranks per GPU not checked";
    return r;
  }
  r.metrics["gpus_visible"] = *gpus;
  addEvidence(r, "GPUs visible", *gpus, "/proc/driver/nvidia/gpus, CUDA_VISIBLE_DEVICES");
  Findings f;
  const auto& p = j.process;
  if (p.local_world_size > *gpus)
    f.add(Status::kFail,
          fmt::format("{} ranks on this node but {} GPU(s): ranks would share GPUs (NCCL: \"Duplicate GPU detected\")",
                      p.local_world_size, *gpus),
          fmt::format("start at most {} ranks per node (e.g. --ntasks-per-node={} or --nproc_per_node={})", *gpus,
                      *gpus, *gpus));
  else if (p.local_rank >= *gpus)
    f.add(Status::kFail, fmt::format("local rank {} has no GPU of its own ({} visible)", p.local_rank, *gpus),
          "check CUDA_VISIBLE_DEVICES and the ranks per node");
  if (j.nodeCount && p.world_size != *gpus * *j.nodeCount && p.local_world_size <= *gpus)
    f.add(Status::kWarn,
          fmt::format("world size {} is not GPUs per node x nodes = {} x {} = {}: some GPUs stay idle", p.world_size,
                      *gpus, *j.nodeCount, *gpus * *j.nodeCount),
          fmt::format("launch {} ranks per node", *gpus));
  f.apply(r, fmt::format("{} rank(s) per node on {} GPU(s); local rank {} maps to a GPU", p.local_world_size, *gpus,
                         p.local_rank));
  return r;
}

/// OMPI_COMM_WORLD_NODE_RANK is the rank *within* the node (Open MPI's mpirun(1)), not the node's index: a
/// NODE_RANK copied from it sends torchrun-style code to the wrong rendezvous rank.
Result nodeRankResult(const JobEnv& j, const SystemView& sys) {
  Result r = make("node_rank");
  const Environment& env = sys.env();
  Findings f;
  auto userNodeRank = env.getInt("NODE_RANK");
  auto ompiNodeRank = env.getInt("OMPI_COMM_WORLD_NODE_RANK");
  if (userNodeRank && ompiNodeRank && *userNodeRank == *ompiNodeRank && j.process.local_world_size > 1 &&
      *ompiNodeRank != 0)
    f.add(
        Status::kFail,
        fmt::format("NODE_RANK={} equals OMPI_COMM_WORLD_NODE_RANK, which is this process's rank within its node, not "
                    "the node's index",
                    *userNodeRank),
        "derive the node index another way (e.g. OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_LOCAL_SIZE with --map-by "
        "node-blocks, or use `preflight env --export torch`)");
  if (j.nodeRank && j.nodeCount && *j.nodeRank >= *j.nodeCount)
    f.add(Status::kFail,
          fmt::format("node rank {} (from {}) is not below the node count {}", *j.nodeRank,
                      j.sources.value("node_rank", "?"), *j.nodeCount),
          "fix the launcher's node rank variable");
  if (!j.nodeRank && !f.any()) {
    r.status = Status::kSkipped;
    r.message = "no node rank from the launcher";
    return r;
  }
  f.apply(r, fmt::format("node rank {} of {} (from {})", j.nodeRank.value_or(-1),
                         j.nodeCount ? std::to_string(*j.nodeCount) : "?", j.sources.value("node_rank", "?")));
  return r;
}

}  // namespace

std::optional<int> visibleGpus(const SystemView& sys) {
  int n = static_cast<int>(sys.list("/proc/driver/nvidia/gpus").size());
  if (n == 0)
    for (const auto& d : sys.list("/dev"))
      if (d.size() > 6 && d.rfind("nvidia", 0) == 0 && std::isdigit(static_cast<unsigned char>(d[6]))) ++n;
  if (n == 0) return std::nullopt;
  if (auto cvd = sys.env().get("CUDA_VISIBLE_DEVICES")) {
    auto ids = splitList(*cvd, ",");
    // NoDevFiles / -1 hide every GPU; otherwise CUDA stops at the first invalid entry, so count up to n.
    int visible = 0;
    for (const auto& id : ids) {
      if (id == "-1" || id == "NoDevFiles") break;
      ++visible;
    }
    n = std::min(n, visible);
  }
  return n;
}

std::vector<Result> checkJobEnv(const JobEnv& job, const SystemView& sys, const EnvCheckOptions& opt) {
  std::vector<Result> out = {launcherResult(job), gpuResult(job, sys), nodeRankResult(job, sys)};
  out.push_back(checkRendezvous(job, sys, opt));
  const std::string host = nodeName(sys);
  for (auto& r : out) {
    r.host = host;
    r.rank = job.process.rank;
  }
  return out;
}

}  // namespace pf::probes

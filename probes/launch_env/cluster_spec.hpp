// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Cluster descriptions given as JSON by the platform, normalised to "this node's index among the training
// nodes, the node list, the master":
//   Vertex AI CLUSTER_SPEC: {"cluster": {"workerpool0": [...], "workerpool1": [...], ...},
//                           "task": {"type": "workerpool1", "index": 0}}; workerpool0 is the primary replica,
//                           workerpool1 the workers; pools 2 and 3 (reduction servers, evaluators) do not train.
//   TF_CONFIG: {"cluster": {"chief": [...], "worker": [...], "ps": [...]}, "task": {"type": "worker", "index": 1}};
//              chief then workers train; ps and evaluator do not.
//   SageMaker: SM_HOSTS='["algo-1","algo-2"]', SM_CURRENT_HOST=algo-2; the toolkit orders hosts by name and
//              the first is the master.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pf::probes {

struct ClusterNodes {
  std::vector<std::string> hosts;  ///< training nodes in rank order ("host:port" entries keep their port)
  std::optional<int> nodeRank;     ///< this node's index, when it is a training node
  std::string role;                ///< this task's type as given
};

/// @param var the variable's name, for messages. @throws UsageError for malformed JSON or a wrong shape
ClusterNodes parseClusterSpec(const std::string& json, const std::string& var);
ClusterNodes parseTfConfig(const std::string& json, const std::string& var);
ClusterNodes parseSageMaker(const std::string& hostsJson, const std::string& currentHost);

/// "host:port" -> {"host", port}; no port -> nullopt port. Brackets around IPv6 hosts are removed.
std::pair<std::string, std::optional<int>> splitHostPort(const std::string& hp);

}  // namespace pf::probes

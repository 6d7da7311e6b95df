// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Sources: Google Cloud "Distributed training" (CLUSTER_SPEC format), TensorFlow's TF_CONFIG documentation
// (tf.distribute.cluster_resolver.TFConfigClusterResolver), SageMaker training toolkit environment variables.
#include "cluster_spec.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "pf/error.hpp"
#include "pf/result.hpp"

namespace pf::probes {
namespace {

Json parse(const std::string& text, const std::string& var) {
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {  // parse_error, and out_of_range for a number like 1e999
    throw UsageError(fmt::format("{} is not valid JSON ({}); fix the variable or unset it", var, e.what()));
  }
}

/// The task's pools in training order, the rest ignored; fills hosts and this node's index.
ClusterNodes fromPools(const Json& j, const std::string& var, const std::vector<std::string>& trainingPools) {
  if (!j.is_object() || !j.contains("cluster") || !j["cluster"].is_object())
    throw UsageError(
        fmt::format("{} has no \"cluster\" object; expected {{\"cluster\": {{...}}, \"task\": {{...}}}}", var));
  ClusterNodes out;
  std::string type;
  int index = -1;
  if (j.contains("task") && j["task"].is_object()) {
    const Json& t = j["task"];
    if (t.contains("type") && !t["type"].is_string())
      throw UsageError(fmt::format("{}: task.type must be a string", var));
    if (t.contains("index") && !t["index"].is_number_integer())
      throw UsageError(fmt::format("{}: task.index must be an integer", var));
    type = t.value("type", "");
    index = t.value("index", -1);
  }
  out.role = type;
  for (const auto& pool : trainingPools) {
    if (!j["cluster"].contains(pool)) continue;
    const Json& members = j["cluster"][pool];
    if (!members.is_array())
      throw UsageError(fmt::format("{}: cluster.{} must be a list of \"host:port\" strings", var, pool));
    if (pool == type && index >= 0) {
      if (index >= static_cast<int>(members.size()))
        throw UsageError(
            fmt::format("{}: task.index {} is outside cluster.{} ({} entries)", var, index, pool, members.size()));
      out.nodeRank = static_cast<int>(out.hosts.size()) + index;
    }
    for (const auto& m : members) {
      if (!m.is_string()) throw UsageError(fmt::format("{}: cluster.{} must hold strings", var, pool));
      out.hosts.push_back(m.get<std::string>());
    }
  }
  return out;
}

}  // namespace

std::pair<std::string, std::optional<int>> splitHostPort(const std::string& hp) {
  if (!hp.empty() && hp.front() == '[') {
    auto close = hp.find(']');
    std::string host = hp.substr(1, close - 1);
    if (close != std::string::npos && close + 1 < hp.size() && hp[close + 1] == ':')
      return {host, std::atoi(hp.c_str() + close + 2)};
    return {host, std::nullopt};
  }
  auto colon = hp.rfind(':');
  if (colon == std::string::npos || hp.find(':') != colon) return {hp, std::nullopt};
  return {hp.substr(0, colon), std::atoi(hp.c_str() + colon + 1)};
}

ClusterNodes parseClusterSpec(const std::string& json, const std::string& var) {
  return fromPools(parse(json, var), var, {"workerpool0", "workerpool1"});
}

ClusterNodes parseTfConfig(const std::string& json, const std::string& var) {
  return fromPools(parse(json, var), var, {"chief", "master", "worker"});
}

ClusterNodes parseSageMaker(const std::string& hostsJson, const std::string& currentHost) {
  Json j = parse(hostsJson, "SM_HOSTS");
  if (!j.is_array() || std::any_of(j.begin(), j.end(), [](const Json& h) { return !h.is_string(); }))
    throw UsageError("SM_HOSTS must be a JSON list of host names, e.g. [\"algo-1\",\"algo-2\"]");
  ClusterNodes out;
  for (const auto& h : j) out.hosts.push_back(h.get<std::string>());
  std::sort(out.hosts.begin(), out.hosts.end());
  auto it = std::find(out.hosts.begin(), out.hosts.end(), currentHost);
  if (it != out.hosts.end()) out.nodeRank = static_cast<int>(it - out.hosts.begin());
  out.role = currentHost;
  return out;
}

}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "in_switch.hpp"

#include <fmt/format.h>

#include <map>

#include "nic_rates.hpp"

namespace pf::scaling {

namespace {

const Json* param(const HostResults& h, const char* key, const char* name) {
  const auto it = h.find(key);
  if (it == h.end()) return nullptr;
  const auto p = it->second->params.find(name);
  return p == it->second->params.end() ? nullptr : &*p;
}

std::string setting(const HostResults& h, const char* name) {
  const Json* s = param(h, "probe.nccl", "settings");
  if (!s || !s->is_object()) return "";
  const auto v = s->find(name);
  return v != s->end() && v->is_string() ? v->get<std::string>() : "";
}

// Empty when the host can run NVLS, else what stops it.
std::string nvlsMissing(const HostResults& h, int* gpus) {
  const auto gpu = h.find("probe.gpu");
  if (gpu == h.end()) return "no probe.gpu result";
  int yes = 0, asked = 0;
  for (const Json& row : gpu->second->rows) {
    const auto m = row.is_object() ? row.find("multicast_supported") : row.end();
    if (m == row.end() || !m->is_boolean()) continue;
    ++asked;
    yes += m->get<bool>() ? 1 : 0;
  }
  *gpus = yes;
  if (asked == 0) return "no GPU answered the multicast query (no GPU, or a driver before CUDA 12.1)";
  if (yes < asked) return fmt::format("{} of {} GPUs lack NVSwitch multicast", asked - yes, asked);
  if (yes < 2) return "one GPU: nothing to reduce across inside the node";
  if (setting(h, "NCCL_NVLS_ENABLE") == "0") return "NCCL_NVLS_ENABLE=0";
  const auto lib = h.find("probe.nccl");
  if (lib != h.end()) {
    const auto code = lib->second->metrics.find("version_code");
    if (code != lib->second->metrics.end() && code->is_number() && code->get<int>() < 21700)
      return fmt::format("NCCL {} predates NVLS (2.17)", code->get<int>());
  }
  return "";
}

std::string collNetMissing(const HostResults& h) {
  if (h.find("probe.nccl") == h.end()) return "no probe.nccl result";
  const Json* plugin = param(h, "probe.nccl", "collnet_plugin");
  if (!plugin || !plugin->is_string()) return "no net plugin exporting ncclCollNetPlugin_vN (the SHARP plugin)";
  if (setting(h, "NCCL_COLLNET_ENABLE") != "1") return "NCCL_COLLNET_ENABLE is not 1 (CollNet is off by default)";
  return "";
}

}  // namespace

InSwitchReductions inSwitchFromProbe(const RunReport& probe, const std::string& path) {
  const std::map<std::string, HostResults> byHost = probeResultsByHost(probe);
  InSwitchReductions out;
  out.source = path;
  if (byHost.empty()) {
    out.nvlsWhy = out.collNetWhy = "no probe results in " + path;
    return out;
  }
  out.nvls = out.collNet = true;
  int fewestGpus = 0;
  std::string collNetPlugin;
  for (const auto& [host, results] : byHost) {
    int gpus = 0;
    if (std::string why = nvlsMissing(results, &gpus); !why.empty() && out.nvls)
      out.nvls = false, out.nvlsWhy = fmt::format("node {}: {}", host, why);
    else if (why.empty() && (fewestGpus == 0 || gpus < fewestGpus))
      fewestGpus = gpus;
    if (std::string why = collNetMissing(results); !why.empty() && out.collNet)
      out.collNet = false, out.collNetWhy = fmt::format("node {}: {}", host, why);
    else if (why.empty())
      collNetPlugin = param(results, "probe.nccl", "collnet_plugin")->get<std::string>();
  }
  const size_t n = byHost.size();
  if (out.nvls) out.nvlsWhy = fmt::format("{} GPUs with NVSwitch multicast on each of {} node(s)", fewestGpus, n);
  if (out.collNet) out.collNetWhy = fmt::format("{} and NCCL_COLLNET_ENABLE=1 on each of {} node(s)", collNetPlugin, n);
  return out;
}

}  // namespace pf::scaling

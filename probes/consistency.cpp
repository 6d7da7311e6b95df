// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "consistency.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

namespace pf::probes {
namespace {

/// A field a probe publishes in metrics or params, as a printable string; empty when it has none.
std::string fieldText(const Result& r, const std::string& name) {
  for (const Json* obj : {&r.metrics, &r.params}) {
    if (!obj->is_object() || !obj->contains(name)) continue;
    const Json& v = (*obj)[name];
    if (v.is_null()) return "";
    return v.is_string() ? v.get<std::string>() : v.dump();
  }
  return "";
}

/// NCCL_VERSION_CODE as printed by NCCL: 22105 -> "2.21.5" (the 2.9+ encoding major*10000+minor*100+patch).
std::string ncclVersionText(const std::string& code) {
  long long c = std::atoll(code.c_str());
  if (c <= 0) return code;
  if (c < 10000) return fmt::format("{}.{}.{}", c / 1000, (c % 1000) / 100, c % 100);  // pre-2.9 encoding
  return fmt::format("{}.{}.{}", c / 10000, (c % 10000) / 100, c % 100);
}

struct FactRule {
  const char* probe;  ///< result key
  const char* field;  ///< metrics/params name
  const char* fact;   ///< fact name
  bool fatal;         ///< differing is a fail (job cannot run consistently), else a warn
  const char* remedy;
};

// Facts read straight from a probe's metrics or params. Versions and GPUs fail: mixed NCCL versions hang or
// crash at init, and a job sized for N GPUs per node cannot start where there are fewer.
constexpr FactRule kRules[] = {
    {"probe.nccl", "version_code", "nccl.version", true,
     "install the same NCCL on every node (or point LD_LIBRARY_PATH at one shared copy)"},
    {"probe.gpu", "gpu_count", "gpu.count", true,
     "check the missing GPUs (nvidia-smi, dmesg for Xid / fallen-off-the-bus) or exclude the node"},
    {"probe.gpu", "model", "gpu.model", true, "allocate nodes of one GPU model for one job"},
    {"probe.gpu", "driver_version", "gpu.driver_version", false, "install the same NVIDIA driver on every node"},
    {"probe.gpu", "cuda_driver_version", "gpu.cuda_driver_version", false,
     "install the same NVIDIA driver (CUDA driver API version) on every node"},
    {"probe.gpu", "cuda_runtime_version", "gpu.cuda_runtime_version", false,
     "use one CUDA runtime (container image) on every node"},
    {"probe.ib", "ofed_version", "ib.ofed_version", false, "install the same OFED / rdma-core on every node"},
    {"probe.net", "selected_mtu", "net.mtu", false,
     "set the same MTU on the interfaces NCCL uses on every node (ip link set DEV mtu N)"},
    {"probe.net", "bootstrap_subnet", "net.bootstrap_subnet", false,
     "make NCCL use interfaces of one routed network on every node (NCCL_SOCKET_IFNAME), or check the routes"},
    {"probe.net", "physical_up_count", "net.nic_count", false,
     "check the node's missing or down interfaces (ip link) or its cabling"},
    // Host-memory collectives (Open MPI's shared memory: docs/performance.md) run at different speeds per mode.
    {"probe.host", "transparent_hugepages", "host.transparent_hugepages", false,
     "set one transparent huge page mode on every node (/sys/kernel/mm/transparent_hugepage/enabled, or "
     "transparent_hugepage= on the kernel command line)"},
};

std::vector<Fact> rowFacts(const Result& r) {
  std::vector<Fact> out;
  if (r.key == "probe.ib" && r.rows.is_array() && !r.rows.empty()) {
    int active = 0;
    std::multiset<double> rates;
    for (const auto& row : r.rows) {
      if (!portIsActive(row)) continue;
      ++active;
      if (row.contains("rate_gbit") && row["rate_gbit"].is_number()) rates.insert(row["rate_gbit"].get<double>());
    }
    out.push_back({"ib.active_ports", std::to_string(active)});
    std::vector<std::string> rs;
    for (double v : rates) rs.push_back(fmt::format("{:g}", v));
    out.push_back({"ib.port_rates_gbit", rs.empty() ? "(none)" : fmt::format("{}", fmt::join(rs, ","))});
  }
  if (r.key == "probe.efa" && r.status != Status::kAbsent && r.rows.is_array())
    out.push_back({"efa.devices", std::to_string(r.rows.size())});
  return out;
}

std::string remedyFor(const std::string& fact) {
  for (const auto& rule : kRules)
    if (fact == rule.fact) return rule.remedy;
  if (fact.rfind("env.", 0) == 0)
    return fmt::format(
        "set {} the same way on every node (job script, container env, /etc/nccl.conf) or "
        "unset it where it is not meant to be",
        fact.substr(4));
  if (fact.rfind("ib.", 0) == 0)
    return "check the ports that differ (ibstat, cabling, subnet manager) or exclude the node";
  return "make the node match the others or exclude it from the job";
}

/// Result keys are lower-case snake_case ("env.NCCL_IB_HCA" -> "env.nccl_ib_hca").
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool isFatal(const std::string& fact) {
  for (const auto& rule : kRules)
    if (fact == rule.fact) return rule.fatal;
  return false;
}

}  // namespace

bool portIsActive(const Json& row) {
  if (!row.is_object() || !row.contains("state") || !row["state"].is_string()) return false;
  std::string state = row["state"].get<std::string>();
  if (auto colon = state.find(": "); colon != std::string::npos) state = state.substr(colon + 2);
  return state == "ACTIVE";
}

std::vector<double> activePortRatesGbit(const Result& ib) {
  std::vector<double> rates;
  if (!ib.rows.is_array()) return rates;
  for (const auto& row : ib.rows)
    if (portIsActive(row) && row.contains("rate_gbit") && row["rate_gbit"].is_number())
      rates.push_back(row["rate_gbit"].get<double>());
  return rates;
}

std::vector<Fact> extractFacts(const std::vector<Result>& results) {
  std::vector<Fact> facts;
  for (const auto& r : results) {
    for (const auto& rule : kRules) {
      if (r.key != rule.probe) continue;
      std::string v = fieldText(r, rule.field);
      if (v.empty()) continue;
      facts.push_back({rule.fact, std::string(rule.fact) == "nccl.version" ? ncclVersionText(v) : v});
    }
    for (auto& f : rowFacts(r)) facts.push_back(std::move(f));
    // Every NCCL_* setting the nccl probe saw (environment and nccl.conf, as NCCL would resolve them).
    if (r.key == "probe.nccl" && r.params.contains("settings") && r.params["settings"].is_object())
      for (const auto& [name, value] : r.params["settings"].items())
        facts.push_back({"env." + name, value.is_string() ? value.get<std::string>() : value.dump()});
  }
  return facts;
}

std::vector<Result> checkConsistency(const std::vector<RankResults>& ranks) {
  std::vector<Result> out;
  if (ranks.size() < 2) return out;
  // fact -> value per rank; a rank without the fact has "(unset)" for env.* and is skipped otherwise.
  std::map<std::string, std::map<size_t, std::string>> table;
  for (size_t i = 0; i < ranks.size(); ++i)
    for (const auto& f : extractFacts(ranks[i].results)) table[f.name][i] = f.value;
  for (auto& [fact, values] : table) {
    if (fact.rfind("env.", 0) == 0)
      for (size_t i = 0; i < ranks.size(); ++i)
        if (!values.count(i)) values[i] = "(unset)";
    std::map<std::string, std::vector<size_t>> byValue;
    for (const auto& [i, v] : values) byValue[v].push_back(i);
    if (byValue.size() < 2) continue;
    // The majority is the value most ranks hold; on a tie, the one rank 0's group holds (stable and explainable).
    auto best = byValue.begin();
    for (auto it = byValue.begin(); it != byValue.end(); ++it) {
      bool more = it->second.size() > best->second.size();
      bool tieWithFirst = it->second.size() == best->second.size() && it->second.front() < best->second.front();
      if (more || tieWithFirst) best = it;
    }
    const bool tie = std::count_if(byValue.begin(), byValue.end(),
                                   [&](const auto& kv) { return kv.second.size() == best->second.size(); }) > 1;
    for (const auto& [value, members] : byValue) {
      if (value == best->first) continue;
      for (size_t i : members) {
        Result r;
        r.key = "consistency." + lower(fact);
        r.kind = Kind::kProbe;
        r.status = isFatal(fact) ? Status::kFail : Status::kWarn;
        r.host = ranks[i].host;
        r.rank = ranks[i].rank;
        r.message = fmt::format("{}: {} is {} here but {} on {} of {} ranks{}", memberLabel(ranks, i),
                                fact.substr(fact.find('.') + 1), value, best->first, best->second.size(), ranks.size(),
                                tie ? " (no clear majority)" : "");
        r.remedy = remedyFor(fact);
        r.params = {{"fact", fact}};
        r.evidence.push_back({fact, value, "", "this rank's probe results"});
        r.evidence.push_back(
            {fact + " (majority)", best->first, "", fmt::format("{} of {} ranks", best->second.size(), ranks.size())});
        out.push_back(std::move(r));
      }
    }
  }
  return out;
}

}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// nccl: the NCCL library a job would load (version), its net plugin, and every NCCL_* setting from the
// environment, NCCL_CONF_FILE / ~/.nccl.conf and /etc/nccl.conf, checked against the documented rules:
// unknown names (typos are silently ignored by NCCL), bad syntax, obsolete variables, debugging-only
// variables left in production, and values that contradict this node (IB disabled on an IB node, a GID index
// pinned on NCCL >= 2.21, a topology file that is not there).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "nccl/nccl_conf.hpp"
#include "nccl/nccl_env_table.hpp"
#include "nccl/nccl_library.hpp"
#include "pf/json_field.hpp"
#include "probe.hpp"
#include "probe_util.hpp"

namespace pf::probes {
namespace {

void checkNames(const NcclSettings& s, Findings& f) {
  std::vector<std::string> debug;
  for (const auto& [name, setting] : s.values) {
    if (name.rfind("NCCL_", 0) != 0) continue;
    const NcclVarInfo* info = findNcclVar(name);
    const std::string shown = s.describe(name);
    if (!info) {
      std::string guess = closestNcclVar(name);
      f.add(
          Status::kWarn,
          fmt::format("{} is not an NCCL variable{}: NCCL ignores it", shown,
                      guess.empty() ? "" : fmt::format(" (did you mean {}?)", guess)),
          guess.empty() ? fmt::format("remove {} or check its spelling", name) : fmt::format("rename it to {}", guess));
      continue;
    }
    switch (info->cls) {
      case NcclVarClass::kObsolete:
        f.add(Status::kWarn, fmt::format("{} is obsolete: {}", shown, info->note),
              fmt::format("remove {} from the job's environment", name));
        continue;
      case NcclVarClass::kPytorch:
        f.add(Status::kWarn, fmt::format("{} is read by PyTorch, not NCCL, and was renamed {}", shown, info->note),
              fmt::format("use {}", info->note));
        continue;
      case NcclVarClass::kNotNccl: continue;  // shown as evidence, as every setting is
      case NcclVarClass::kDebug: debug.push_back(name); break;
      case NcclVarClass::kSystem: break;
    }
    for (const auto& p : validateNcclValue(*info, setting.value)) f.add(p.status, p.message, p.remedy);
  }
  if (!debug.empty())
    f.add(Status::kWarn,
          fmt::format("debugging-only variable(s) set: {} (NCCL's guide: not for production; they can cost "
                      "performance, crash or hang)",
                      fmt::join(debug, ", ")),
          "keep them only as a documented work-around for a known problem, else remove them");
  for (const auto& p : s.problems)
    f.add(Status::kWarn, fmt::format("{}:{}: '{}': {}", p.file, p.line, p.text, p.why), "fix the line in " + p.file);
}

/// Settings that contradict what this node has or the NCCL it runs.
void checkAgainstNode(const SystemView& sys, const NcclSettings& s, const NcclLibrary& lib, Findings& f) {
  const bool ib = !sys.list("/sys/class/infiniband").empty();
  if (s.get("NCCL_IB_DISABLE") == "1" && ib)
    f.add(Status::kWarn, "NCCL_IB_DISABLE=1 on a node with RDMA devices: NCCL falls back to TCP sockets",
          "unset NCCL_IB_DISABLE unless IB/RoCE is known broken here");
  if (s.get("NCCL_IB_GID_INDEX") && lib.found && lib.versionCode >= 22100)
    f.add(Status::kWarn,
          fmt::format("{} is set with NCCL {}: since 2.21 NCCL selects the GID itself and the guide says not to set it",
                      s.describe("NCCL_IB_GID_INDEX"), lib.version),
          "unset NCCL_IB_GID_INDEX (use NCCL_IB_ADDR_FAMILY / NCCL_IB_ADDR_RANGE to steer the choice)");
  // NCCL skips a configuration file it cannot open without a word: the settings in it silently do not apply.
  if (auto conf = sys.env().get("NCCL_CONF_FILE"); conf && !conf->empty() && !sys.exists(*conf))
    f.add(Status::kWarn, fmt::format("NCCL_CONF_FILE={} does not exist: none of its settings apply", *conf),
          "fix the path or copy the file to every node");
  if (auto topo = s.get("NCCL_TOPO_FILE"); topo && !sys.exists(*topo))
    f.add(Status::kWarn, fmt::format("{} does not exist on this node", s.describe("NCCL_TOPO_FILE")),
          "copy the topology file to every node or unset NCCL_TOPO_FILE");
  auto threads = parseInt(s.get("NCCL_SOCKET_NTHREADS").value_or(""));
  auto socks = parseInt(s.get("NCCL_NSOCKS_PERTHREAD").value_or(""));
  if (threads && socks && *threads * *socks > 64)
    f.add(
        Status::kWarn,
        fmt::format("NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD = {} exceeds NCCL's limit of 64", *threads * *socks),
        "lower one of them so that the product is at most 64");
}

void checkPlugin(const SystemView& sys, const NcclSettings& s, Result& r, Findings& f) {
  NetPluginLookup p = findNetPlugin(sys, s.get("NCCL_NET_PLUGIN"));
  r.params["net_plugin"] = p.disabled ? Json("none (disabled)") : jsonOrNull(p.loaded);
  r.params["collnet_plugin"] = jsonOrNull(p.collNet);  // capacity model: CollNet possible
  addEvidence(r, "net plugin", r.params["net_plugin"],
              p.disabled ? "NCCL_NET_PLUGIN=none"
                         : fmt::format("tried {}{}", fmt::join(p.candidates, ", "),
                                       sys.isLive() ? " with dlopen" : " in the tree"));
  auto net = s.get("NCCL_NET");
  const bool external = net && upper(*net) != "IB" && upper(*net) != "SOCKET";
  if (external && p.loaded.empty())
    f.add(Status::kFail,
          fmt::format("{} names an external network but no net plugin loads ({}{}): NCCL init fails",
                      s.describe("NCCL_NET"), fmt::join(p.candidates, ", "), p.error.empty() ? "" : ": " + p.error),
          "install the plugin (e.g. aws-ofi-nccl) and put its directory in LD_LIBRARY_PATH, or fix NCCL_NET");
  else if (s.get("NCCL_NET_PLUGIN") && !p.disabled && p.loaded.empty())
    f.add(Status::kWarn,
          fmt::format("{} does not load ({}): NCCL silently uses its internal IB/Socket transport",
                      s.describe("NCCL_NET_PLUGIN"),
                      p.error.empty() ? fmt::format("{}", fmt::join(p.candidates, ", ")) : p.error),
          "install the plugin or fix LD_LIBRARY_PATH; set NCCL_NET to the plugin's name so a missing plugin fails "
          "loudly");
}

class NcclProbe final : public Probe {
 public:
  std::string description() const override {
    return "NCCL library version and net plugin; NCCL_* variables and nccl.conf checked against NCCL's rules";
  }

  Result run(const SystemView& sys, const ProbeOptions&) const override {
    Result r;
    Findings f;
    NcclSettings s = readNcclSettings(sys);
    r.params["settings"] = Json::object();
    for (const auto& [name, setting] : s.values)
      if (name.rfind("NCCL_", 0) == 0) {
        r.params["settings"][name] = setting.value;
        addEvidence(r, name, setting.value, setting.source);
      }
    addEvidence(r, "configuration files", s.filesRead, "NCCL_CONF_FILE or ~/.nccl.conf, then /etc/nccl.conf");
    NcclLibrary lib = findNcclLibrary(sys);
    r.metrics["version_code"] = lib.versionCode > 0 ? Json(lib.versionCode) : Json();
    r.params["library"] = jsonOrNull(lib.path);
    addEvidence(r, "NCCL version", lib.found ? Json(lib.version) : Json(), lib.found ? lib.path : lib.lookedFor);
    checkNames(s, f);
    checkAgainstNode(sys, s, lib, f);
    checkPlugin(sys, s, r, f);
    if (!lib.found) f.add(Status::kAbsent, fmt::format("no NCCL library found (looked for {})", lib.lookedFor));
    const size_t n = r.params["settings"].size();
    f.apply(r, fmt::format("NCCL {} ({}); {} NCCL_* setting{}{}; net plugin: {}",
                           lib.version.empty() ? "of unknown version" : lib.version, lib.path, n, n == 1 ? "" : "s",
                           n == 0 ? "" : ", all valid",
                           r.params["net_plugin"].is_null() ? "none (internal IB/Socket)"
                                                            : r.params["net_plugin"].get<std::string>()));
    return r;
  }
};

PF_REGISTER_PROBE(NcclProbe, "nccl");

}  // namespace
}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "confirm.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "pf/kernel_log.hpp"

namespace pf::doctor {
namespace fs = std::filesystem;
namespace {

std::string path(const ConfirmContext& c, const std::string& p) { return (fs::path(c.root) / p.substr(1)).string(); }

std::string readFirstLine(const std::string& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return s;
}

std::vector<std::string> listDir(const std::string& p) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(p, ec)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The value the job used: the rule's capture, else what the log says was set, else this node's environment.
// `from` says which, for the detail.
std::string lookup(const ConfirmContext& c, const std::string& capture, const std::string& env, std::string& from) {
  auto it = c.captures.find(capture);
  if (it != c.captures.end() && !it->second.empty()) return from = "the log", it->second;
  auto l = c.logSettings.find(env);
  if (l != c.logSettings.end() && !l->second.empty()) return from = "the log", l->second;
  auto e = c.env.find(env);
  if (e == c.env.end() || e->second.empty()) return "";
  return from = "this node's environment", e->second;
}

// NCCL_SOCKET_IFNAME semantics (NCCL env docs): comma list of prefixes, '^' excludes, '=' means exact names.
ConfirmOutcome socketIfname(const ConfirmContext& c) {
  std::string from;
  std::string spec = lookup(c, "ifname", "NCCL_SOCKET_IFNAME", from);
  auto ifs = listDir(path(c, "/sys/class/net"));
  ConfirmOutcome o{"unknown", "", {{"interfaces", ifs}}};
  if (spec.empty()) {
    o.detail = "NCCL_SOCKET_IFNAME is not set here and the log did not name it";
    return o;
  }
  o.measured["nccl_socket_ifname"] = spec;
  o.measured["nccl_socket_ifname_from"] = from;
  bool exclude = spec[0] == '^';
  if (exclude) spec.erase(0, 1);
  bool exact = !spec.empty() && spec[0] == '=';
  if (exact) spec.erase(0, 1);
  std::vector<std::string> matches;
  std::stringstream ss(spec);
  for (std::string tok; std::getline(ss, tok, ',');) {
    for (const auto& i : ifs)
      if (!tok.empty() && (exact ? i == tok : i.rfind(tok, 0) == 0)) matches.push_back(i);
  }
  o.measured["matching"] = matches;
  if (exclude) {
    o.detail = fmt::format("NCCL_SOCKET_IFNAME excludes {}; interfaces here: {}", spec, fmt::join(ifs, ", "));
    return o;
  }
  if (matches.empty()) {
    o.status = "confirmed";
    o.detail = fmt::format("no interface on this node matches NCCL_SOCKET_IFNAME={} (from {}; interfaces: {})", spec,
                           from, fmt::join(ifs, ", "));
  } else {
    std::string state = readFirstLine(path(c, "/sys/class/net/" + matches[0] + "/operstate"));
    o.status = state == "down" ? "confirmed" : "refuted";
    o.detail = fmt::format("{} exists here (operstate {}); NCCL_SOCKET_IFNAME={} from {}", matches[0],
                           state.empty() ? "unknown" : state, spec, from);
  }
  return o;
}

ConfirmOutcome devShm(const ConfirmContext& c) {
  struct statvfs st {};
  const std::string p = path(c, "/dev/shm");
  if (statvfs(p.c_str(), &st) != 0) return {"unknown", p + " cannot be read (statvfs failed)", {}};
  const double size = static_cast<double>(st.f_blocks) * st.f_frsize,
               avail = static_cast<double>(st.f_bavail) * st.f_frsize;
  ConfirmOutcome o{"refuted", "", {{"size_bytes", size}, {"available_bytes", avail}}};
  // NCCL's troubleshooting guide recommends --shm-size=1g for containers; Docker's default is 64 MiB.
  if (size < 1024.0 * 1024 * 1024 || avail < 256.0 * 1024 * 1024) o.status = "confirmed";
  o.detail = fmt::format("{} is {:.0f} MiB with {:.0f} MiB free{}", p, size / 1048576, avail / 1048576,
                         o.status == "confirmed" ? " (less than the 1 GiB NCCL's docs recommend)" : "");
  return o;
}

ConfirmOutcome rlimit(int resource, const char* name, rlim_t enough, const char* unit) {
  struct rlimit rl {};
  if (getrlimit(resource, &rl) != 0) return {"unknown", fmt::format("getrlimit({}) failed", name), {}};
  const bool unlimited = rl.rlim_cur == RLIM_INFINITY;
  ConfirmOutcome o{unlimited || rl.rlim_cur >= enough ? "refuted" : "confirmed",
                   "",
                   {{"soft", unlimited ? Json("unlimited") : Json(rl.rlim_cur)},
                    {"hard", rl.rlim_max == RLIM_INFINITY ? Json("unlimited") : Json(rl.rlim_max)}}};
  o.detail = fmt::format("{} soft limit in this shell is {}{}", name,
                         unlimited ? "unlimited" : std::to_string(rl.rlim_cur), unlimited ? "" : unit);
  return o;
}

ConfirmOutcome peermem(const ConfirmContext& c) {
  if (fs::exists(path(c, "/sys/kernel/mm/memory_peers/nv_mem/version")))
    return {"refuted", "nvidia-peermem is registered (/sys/kernel/mm/memory_peers/nv_mem/version exists)", {}};
  if (!fs::exists(path(c, "/sys/module/nvidia"))) return {"unknown", "no NVIDIA kernel driver on this node", {}};
  return {"confirmed",
          fmt::format("the NVIDIA driver is loaded but nvidia-peermem is not registered{}",
                      fs::exists(path(c, "/sys/module/nvidia_peermem")) ? " (module loaded, not registered)" : ""),
          {}};
}

ConfirmOutcome removeIpc(const ConfirmContext& c) {
  std::ifstream in(path(c, "/etc/systemd/logind.conf"));
  for (std::string line; std::getline(in, line);)
    if (line.rfind("RemoveIPC=no", 0) == 0) return {"refuted", "logind.conf sets RemoveIPC=no", {}};
  if (!fs::exists(path(c, "/run/systemd/system"))) return {"unknown", "systemd is not running here", {}};
  return {"confirmed", "systemd-logind runs with the default RemoveIPC=yes", {}};
}

ConfirmOutcome rdmaDevices(const ConfirmContext& c) {
  auto sysDevs = listDir(path(c, "/sys/class/infiniband"));
  auto devNodes = listDir(path(c, "/dev/infiniband"));
  ConfirmOutcome o{"unknown", "", {{"sysfs_devices", sysDevs}, {"dev_nodes", devNodes}}};
  if (!devNodes.empty() && !sysDevs.empty()) {
    o.status = "refuted";
    o.detail = fmt::format("RDMA devices {} are visible with /dev/infiniband nodes", fmt::join(sysDevs, ", "));
  } else if (!sysDevs.empty()) {
    o.status = "confirmed";
    o.detail = "RDMA devices exist in sysfs but /dev/infiniband is not exposed (container without --device?)";
  } else {
    o.detail = "no RDMA device is visible on this node (none installed, or none passed to this container)";
  }
  return o;
}

// The kernel's log since boot, as far as its ring buffer still holds it (pf/kernel_log.hpp reads it and finds the
// driver's Xid lines; a captured tree's dev/kmsg file reads the same way).
ConfirmOutcome gpuXid(const ConfirmContext& c) {
  const std::string p = path(c, "/dev/kmsg");
  std::map<std::string, std::size_t> counts;
  std::string first;
  const KernelLogRead log = readKernelLog(p, [&](std::string_view line) {
    if (auto x = parseXidLine(line)) {
      if (first.empty()) first = std::string(line.substr(0, 300));
      ++counts[xidName(*x)];
    }
  });
  if (!log.opened) {
    return {"unknown",
            fmt::format("the kernel log cannot be read here ({}: {}); run as root, or `sudo dmesg | grep -i xid`", p,
                        log.error),
            {}};
  }
  const std::size_t records = log.records;
  Json seen = Json::object();
  std::vector<std::string> list;
  for (const auto& [x, k] : counts) {
    seen[x] = k;
    list.push_back(k > 1 ? fmt::format("{} ({} times)", x, k) : x);
  }
  ConfirmOutcome o{"", "", {{"xids", seen}, {"records", records}}};
  if (!counts.empty()) {
    o.status = "confirmed";
    o.measured["first"] = first;
    o.detail = fmt::format("the kernel log of this node holds {}; the first: {}", fmt::join(list, ", "), first);
  } else if (!fs::exists(path(c, "/sys/module/nvidia"))) {
    o.status = "unknown";
    o.detail = "no Xid in the kernel log, and no NVIDIA driver on this node";
  } else {
    o.status = "refuted";
    o.detail = fmt::format("no Xid in the {} records the kernel log still holds (it keeps the latest ones since boot)",
                           records);
  }
  return o;
}

}  // namespace

void noteLogSettings(std::string_view line, std::map<std::string, std::string>& into) {
  for (std::size_t p = line.find("NCCL_"); p != std::string_view::npos; p = line.find("NCCL_", p + 5)) {
    std::size_t e = p + 5;
    while (e < line.size() &&
           ((line[e] >= 'A' && line[e] <= 'Z') || (line[e] >= '0' && line[e] <= '9') || line[e] == '_'))
      ++e;
    std::string_view rest = line.substr(e);
    for (std::string_view said : {" set by environment to ", " set to "}) {
      if (!rest.starts_with(said)) continue;
      std::string_view v = rest.substr(said.size());
      v = v.substr(0, v.find_first_of(" \t"));
      if (!v.empty() && v.back() == '.') v.remove_suffix(1);  // "set by environment to 1." (NCCL's numbers)
      if (!v.empty()) into.emplace(std::string(line.substr(p, e - p)), std::string(v));
    }
  }
}

const std::vector<std::string>& confirmChecks() {
  static const std::vector<std::string> n = {"socket_ifname", "dev_shm",   "memlock",      "nofile",
                                             "peermem",       "removeipc", "rdma_devices", "gpu_xid"};
  return n;
}

ConfirmOutcome runConfirm(const std::string& check, const ConfirmContext& ctx) {
  if (check == "socket_ifname") return socketIfname(ctx);
  if (check == "dev_shm") return devShm(ctx);
  // EFA and NCCL's docs ask for an unlimited memlock; anything finite is a finding.
  if (check == "memlock") return rlimit(RLIMIT_MEMLOCK, "memlock (ulimit -l)", RLIM_INFINITY, " bytes");
  if (check == "nofile") return rlimit(RLIMIT_NOFILE, "open files (ulimit -n)", 65536, "");
  if (check == "peermem") return peermem(ctx);
  if (check == "removeipc") return removeIpc(ctx);
  if (check == "rdma_devices") return rdmaDevices(ctx);
  if (check == "gpu_xid") return gpuXid(ctx);
  return {"unknown", fmt::format("no node check for '{}' yet", check), {}};
}

}  // namespace pf::doctor

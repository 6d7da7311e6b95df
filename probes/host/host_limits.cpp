// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "host/host_limits.hpp"

#include <sys/statvfs.h>

#include <cctype>
#include <sstream>

#include "probe_util.hpp"

namespace pf::probes {
namespace {

/// "65536k" / "1g" / "1048576" (tmpfs size= option) in bytes; "50%" and garbage give nullopt.
std::optional<long long> tmpfsSize(const std::string& v) {
  if (v.empty() || v.back() == '%') return std::nullopt;
  long long mult = 1;
  std::string num = v;
  switch (std::tolower(static_cast<unsigned char>(v.back()))) {
    case 'k': mult = 1LL << 10; break;
    case 'm': mult = 1LL << 20; break;
    case 'g': mult = 1LL << 30; break;
    default: break;
  }
  if (mult != 1) num.pop_back();
  auto n = parseInt(num);
  if (!n) return std::nullopt;
  return *n * mult;
}

std::optional<bool> yesNo(const std::string& v) {
  std::string t = trim(v);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "yes" || t == "true" || t == "1" || t == "on") return true;
  if (t == "no" || t == "false" || t == "0" || t == "off") return false;
  return std::nullopt;
}

}  // namespace

Limit readLimit(const SystemView& sys, const std::string& name) {
  Limit l;
  auto text = sys.read("/proc/self/limits");
  if (!text) return l;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name, 0) != 0) continue;
    std::istringstream f(line.substr(name.size()));
    std::string soft, hard;
    f >> soft >> hard;
    l.found = true;
    if (soft != "unlimited") l.soft = parseInt(soft);
    if (hard != "unlimited") l.hard = parseInt(hard);
  }
  return l;
}

std::string limitText(const std::optional<long long>& v) { return v ? std::to_string(*v) : "unlimited"; }

ShmInfo readShm(const SystemView& sys) {
  ShmInfo s;
  if (auto mounts = sys.read("/proc/mounts")) {
    std::istringstream in(*mounts);
    std::string dev, dir, type, opts;
    while (in >> dev >> dir >> type >> opts) {
      std::string rest;
      std::getline(in, rest);
      if (dir != "/dev/shm") continue;
      s.mounted = true;
      s.source = "/proc/mounts";
      for (const auto& o : splitList(opts, ","))
        if (o.rfind("size=", 0) == 0) s.sizeBytes = tmpfsSize(o.substr(5));
    }
  }
  // Live: the file system itself is the truth (the mount option can be a percentage or absent).
  struct statvfs st {};
  if (sys.isLive() && statvfs(sys.path("/dev/shm").c_str(), &st) == 0) {
    s.mounted = true;
    s.sizeBytes = static_cast<long long>(st.f_blocks) * static_cast<long long>(st.f_frsize);
    s.freeBytes = static_cast<long long>(st.f_bavail) * static_cast<long long>(st.f_frsize);
    s.source = "statvfs(/dev/shm)";
  }
  return s;
}

std::optional<bool> readRemoveIpc(const SystemView& sys, std::string& source) {
  bool logind = sys.exists("/etc/systemd/logind.conf") || sys.exists("/lib/systemd/systemd-logind") ||
                sys.exists("/usr/lib/systemd/systemd-logind");
  if (!logind) return std::nullopt;
  std::optional<bool> value = true;  // systemd's compiled-in default
  source = "systemd default (RemoveIPC=yes)";
  std::vector<std::string> files = {"/etc/systemd/logind.conf"};
  for (const auto& f : sys.list("/etc/systemd/logind.conf.d"))
    if (f.size() > 5 && f.substr(f.size() - 5) == ".conf") files.push_back("/etc/systemd/logind.conf.d/" + f);
  for (const auto& file : files) {
    auto text = sys.read(file);
    if (!text) continue;
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
      std::string t = trim(line);
      if (t.rfind("RemoveIPC", 0) != 0) continue;
      auto eq = t.find('=');
      if (eq == std::string::npos || trim(t.substr(0, eq)) != "RemoveIPC") continue;
      if (auto v = yesNo(t.substr(eq + 1))) {
        value = v;
        source = file;
      }
    }
  }
  return value;
}

}  // namespace pf::probes

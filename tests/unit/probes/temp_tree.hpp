// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A throw-away captured tree for probe tests: files and relative symlinks written under a fresh temporary
// directory (removed at the end of the test), laid out as the kernel's sysfs/procfs would.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace pf::probes::test {

class TempTree {
 public:
  TempTree() {
    std::random_device rd;
    root_ =
        std::filesystem::temp_directory_path() / ("pf-tree-" + std::to_string(getpid()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(root_);
  }
  ~TempTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  /// Writes `content` (plus a newline, as sysfs does) to the absolute path `abs` inside the tree.
  TempTree& file(const std::string& abs, const std::string& content) {
    auto p = root_ / abs.substr(1);
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << content << "\n";
    return *this;
  }
  /// A symlink at `abs` pointing at `target` (kept as given: relative targets stay relative).
  TempTree& link(const std::string& abs, const std::string& target) {
    auto p = root_ / abs.substr(1);
    std::filesystem::create_directories(p.parent_path());
    std::filesystem::create_symlink(target, p);
    return *this;
  }
  TempTree& dir(const std::string& abs) {
    std::filesystem::create_directories(root_ / abs.substr(1));
    return *this;
  }
  /// A network interface as sysfs shows it; `device` empty = virtual (under devices/virtual/net).
  TempTree& netIf(const std::string& name, int ifindex, const std::string& oper, int mtu,
                  const std::string& device = "") {
    std::string base = device.empty() ? "/sys/devices/virtual/net/" + name : "/sys/devices/" + device + "/net/" + name;
    file(base + "/ifindex", std::to_string(ifindex));
    file(base + "/operstate", oper);
    file(base + "/flags", oper == "down" ? "0x1002" : "0x1003");
    file(base + "/mtu", std::to_string(mtu));
    file(base + "/type", name == "lo" ? "772" : "1");
    file(base + "/address", "02:00:00:00:00:0" + std::to_string(ifindex % 10));
    if (!device.empty()) link(base + "/device", "../../../" + device.substr(device.rfind('/') + 1));
    link("/sys/class/net/" + name, "../.." + base.substr(4));
    return *this;
  }
  /// IPv4 addresses as procfs shows them: "/32 host LOCAL" leaves in /proc/net/fib_trie and one connected
  /// route per address in /proc/net/route (replaces both files). Each entry: {ifname, "10.0.0.2", prefix}.
  struct V4 {
    std::string ifname, addr;
    int prefix;
  };
  TempTree& ipv4(const std::vector<V4>& addrs) {
    std::string trie = "Local:\n  +-- 0.0.0.0/0 3 0 5\n";
    std::string route = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n";
    for (const auto& a : addrs) {
      trie += "     |-- " + a.addr + "\n        /32 host LOCAL\n";
      if (a.ifname == "lo") continue;
      unsigned b[4] = {};
      std::sscanf(a.addr.c_str(), "%u.%u.%u.%u", &b[0], &b[1], &b[2], &b[3]);
      uint32_t ip = b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24);  // network order read as little-endian
      uint32_t mask = a.prefix == 0 ? 0 : (0xffffffffu >> (32 - a.prefix));
      char line[128];
      std::snprintf(line, sizeof line, "%s\t%08X\t00000000\t0001\t0\t0\t0\t%08X\t0\t0\t0\n", a.ifname.c_str(),
                    ip & mask, mask);
      route += line;
    }
    file("/proc/net/fib_trie", trie);
    file("/proc/net/route", route);
    return *this;
  }
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

}  // namespace pf::probes::test

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// libFuzzer target: the sysfs and procfs value readers on a fuzzed tree. The input is cut at each 0x00 byte
// into the contents of the files below, in order, written into a captured tree that a SystemView reads as
// "/": the host probe's limits, /dev/shm mount and logind settings, the net probe's interfaces and addresses
// (an interface eth0 with every attribute file, and the routing and address tables), and the check's CPU
// load (/proc/stat and one process). None of these readers documents an error: any exception, crash or hang
// is a finding. Seeds: corpus_procfs (files captured from this VM, joined the same way).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cpu_load.hpp"
#include "fuzz_input_file.hpp"
#include "host/host_limits.hpp"
#include "net/net_interfaces.hpp"
#include "pf/environment.hpp"
#include "system_view.hpp"

namespace {

const std::vector<std::string> kFiles = {"proc/self/limits",
                                         "proc/mounts",
                                         "etc/systemd/logind.conf",
                                         "proc/net/route",
                                         "proc/net/fib_trie",
                                         "proc/net/if_inet6",
                                         "sys/class/net/eth0/ifindex",
                                         "sys/class/net/eth0/operstate",
                                         "sys/class/net/eth0/flags",
                                         "sys/class/net/eth0/mtu",
                                         "sys/class/net/eth0/address",
                                         "sys/class/net/eth0/type",
                                         "sys/class/net/eth0/speed",
                                         "proc/stat",
                                         "proc/4242/stat",
                                         "proc/loadavg"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string in(reinterpret_cast<const char*>(data), size);
  std::size_t at = 0;
  for (const std::string& f : kFiles) {
    const std::size_t end = std::min(in.find('\0', at), in.size());
    const std::string part = at < in.size() ? in.substr(at, end - at) : std::string();
    pf::fuzz::writeInput("root/" + f, reinterpret_cast<const std::uint8_t*>(part.data()), part.size());
    at = end + 1;
  }
  // logind exists in the tree, so its settings are read.
  pf::fuzz::writeInput("root/lib/systemd/systemd-logind", data, 0);
  pf::probes::SystemView sys(pf::fuzz::scratchDir() / "root", pf::Environment(std::map<std::string, std::string>{}));

  (void)pf::probes::readLimit(sys, "Max locked memory");
  (void)pf::probes::readShm(sys);
  std::string source;
  (void)pf::probes::readRemoveIpc(sys, source);
  for (const auto& i : pf::probes::readInterfaces(sys)) (void)pf::probes::toJson(i).dump();
  (void)pf::probes::addressesFromProcfs(pf::probes::readInterfaces(sys));

  const pf::check::CpuSnapshot a = pf::check::takeCpuSnapshot(sys.root());
  const pf::check::CpuLoad load = pf::check::cpuLoadBetween({}, a, {1}, 100);
  (void)pf::check::toJson(load).dump();  // process names reach JSON: they must be valid UTF-8
  (void)load.describe();
  return 0;
}

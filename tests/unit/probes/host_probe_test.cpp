// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The host probe: this machine's captured values, and the limits and /dev/shm sizes that break NCCL.
#include <gtest/gtest.h>

#include "probe.hpp"
#include "temp_tree.hpp"

namespace pf::probes {
namespace {

using test::TempTree;

Result runHost(const std::filesystem::path& root) {
  return Registry<Probe>::instance().create("host")->run(SystemView(root, Environment()), {});
}

/// /proc/self/limits as the kernel prints it (fixed-width name column).
std::string limits(const std::string& memlock, const std::string& nofile, const std::string& stack) {
  return "Limit                     Soft Limit           Hard Limit           Units     \n"
         "Max stack size            " +
         stack +
         "              unlimited            bytes     \n"
         "Max open files            " +
         nofile + "                " + nofile +
         "                files     \n"
         "Max locked memory         " +
         memlock + "              " + memlock + "              bytes     ";
}

TempTree& healthy(TempTree& t) {
  t.file("/proc/cpuinfo",
         "processor\t: 0\nmodel name\t: Test CPU\nphysical id\t: 0\n\nprocessor\t: 1\n"
         "model name\t: Test CPU\nphysical id\t: 1");
  t.file("/proc/meminfo", "MemTotal:       1048576 kB\nMemAvailable:    524288 kB");
  t.file("/proc/sys/kernel/osrelease", "6.1.0-test");
  t.file("/proc/self/limits", limits("unlimited", "1048576", "8388608"));
  t.file("/proc/mounts", "tmpfs /dev/shm tmpfs rw,nosuid,nodev,size=8388608k 0 0");
  t.file("/sys/devices/system/node/node0/cpulist", "0").file("/sys/devices/system/node/node1/cpulist", "1");
  return t;
}

TEST(HostProbe, ThisMachineReportsRealValues) {
  Result r = runHost(PF_FIXTURES "/host-thismachine");
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.params["cpu_model"], "AMD EPYC");
  EXPECT_EQ(r.metrics["cpu_logical"], 2);
  EXPECT_EQ(r.metrics["mem_total_bytes"], 24684084LL * 1024);
  EXPECT_EQ(r.metrics["numa_nodes"], 1);
  EXPECT_EQ(r.params["kernel"], "6.18.44-fc-v669");
  EXPECT_EQ(r.params["transparent_hugepages"], "madvise");
  EXPECT_EQ(r.params["limits"]["memlock_soft_bytes"], 8388608);  // limited, but no RDMA device: not a problem
}

TEST(HostProbe, HealthyTreePassesWithSocketsAndNuma) {
  TempTree t;
  Result r = runHost(healthy(t).root());
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.metrics["cpu_sockets"], 2);
  EXPECT_EQ(r.metrics["numa_nodes"], 2);
  EXPECT_EQ(r.metrics["shm_size_bytes"], 8LL << 30);
}

TEST(HostProbe, TransparentHugePagesModeIsTheBracketedWord) {
  TempTree t;
  EXPECT_TRUE(runHost(healthy(t).root()).params["transparent_hugepages"].is_null()) << "no file: not known";
  t.file("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
  EXPECT_EQ(runHost(t.root()).params["transparent_hugepages"], "always");
  t.file("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise never");  // no mode marked
  EXPECT_TRUE(runHost(t.root()).params["transparent_hugepages"].is_null());
}

TEST(HostProbe, SocketsFromCpuTopologyWhenCpuinfoHasNone) {
  TempTree t;
  healthy(t).file("/proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 50.00\n\nprocessor\t: 1\nBogoMIPS\t: 50.00");
  for (int c = 0; c < 4; ++c)
    t.file("/sys/devices/system/cpu/cpu" + std::to_string(c) + "/topology/physical_package_id", c < 2 ? "0" : "1");
  Result r = runHost(t.root());
  EXPECT_EQ(r.metrics["cpu_sockets"], 2);
  EXPECT_TRUE(r.params["cpu_model"].is_null());
}

TEST(HostProbe, DockerDefaultShmWarnsAndFailsWithGpus) {
  TempTree t;
  healthy(t).file("/proc/mounts", "shm /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime,size=65536k 0 0");
  Result r = runHost(t.root());
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_NE(r.message.find("64 MiB"), std::string::npos) << r.message;
  EXPECT_NE(r.remedy.find("--shm-size"), std::string::npos);
  t.file("/proc/driver/nvidia/gpus/0000:07:00.0/information", "Model: x")
      .file("/proc/driver/nvidia/gpus/0000:0f:00.0/information", "Model: x");
  EXPECT_EQ(runHost(t.root()).status, Status::kFail);
}

TEST(HostProbe, LimitedMemlockFailsOnlyWithRdmaDevices) {
  TempTree t;
  healthy(t).file("/proc/self/limits", limits("65536", "1048576", "8388608"));
  EXPECT_EQ(runHost(t.root()).status, Status::kPass);
  t.dir("/sys/class/infiniband/mlx5_0");
  Result r = runHost(t.root());
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_NE(r.message.find("memlock"), std::string::npos);
  EXPECT_NE(r.remedy.find("unlimited"), std::string::npos);
}

TEST(HostProbe, UnlimitedStackAndFewOpenFilesWarn) {
  TempTree t;
  healthy(t).file("/proc/self/limits", limits("unlimited", "1024", "unlimited"));
  Result r = runHost(t.root());
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_NE(r.message.find("stack size is unlimited"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("open files limited to 1024"), std::string::npos) << r.message;
}

TEST(HostProbe, RemoveIpcWarnsForRegularUsersOnly) {
  TempTree t;
  healthy(t)
      .file("/etc/systemd/logind.conf", "[Login]\n#RemoveIPC=yes")
      .file("/proc/self/status", "Uid:\t1000\t1000\t1000\t1000");
  Result r = runHost(t.root());
  EXPECT_EQ(r.status, Status::kWarn);
  EXPECT_NE(r.message.find("RemoveIPC"), std::string::npos);
  t.file("/etc/systemd/logind.conf.d/ipc.conf", "[Login]\nRemoveIPC=no");
  EXPECT_EQ(runHost(t.root()).status, Status::kPass);
  t.file("/etc/systemd/logind.conf.d/ipc.conf", "").file("/proc/self/status", "Uid:\t0\t0\t0\t0");
  EXPECT_EQ(runHost(t.root()).status, Status::kPass);
}

}  // namespace
}  // namespace pf::probes

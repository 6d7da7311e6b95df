// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "confirm.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace pf::doctor {
namespace {
namespace fs = std::filesystem;

class DoctorConfirm : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("pf_doctor_confirm_" + std::to_string(::getpid()));
    fs::create_directories(root_ / "sys/class/net/eth0");
    fs::create_directories(root_ / "sys/class/net/lo");
    std::ofstream(root_ / "sys/class/net/eth0/operstate") << "up\n";
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(DoctorConfirm, SocketIfnameConfirmedWhenMissingRefutedWhenPresent) {
  ConfirmContext c{root_.string(), {}, {{"ifname", "eth2"}}, {}};
  ConfirmOutcome o = runConfirm("socket_ifname", c);
  EXPECT_EQ(o.status, "confirmed") << o.detail;
  EXPECT_NE(o.detail.find("eth0"), std::string::npos);  // names what does exist
  c.captures["ifname"] = "eth";
  EXPECT_EQ(runConfirm("socket_ifname", c).status, "refuted");  // prefix semantics: eth matches eth0
  c.captures["ifname"] = "=eth";
  EXPECT_EQ(runConfirm("socket_ifname", c).status, "confirmed");  // '=' means exact names
  c.captures.clear();
  c.env["NCCL_SOCKET_IFNAME"] = "^docker";
  EXPECT_EQ(runConfirm("socket_ifname", c).status, "unknown");
  c.env.clear();
  EXPECT_EQ(runConfirm("socket_ifname", c).status, "unknown");
}

TEST_F(DoctorConfirm, SocketIfnameTakesWhatTheLogSaysWasSet) {
  // The rule captured nothing, this node has no NCCL_SOCKET_IFNAME: the log's "set by environment" line decides.
  ConfirmContext c{root_.string(), {}, {}, {}};
  noteLogSettings("NCCL_SOCKET_IFNAME set by environment to eth0", c.logSettings);
  noteLogSettings("NCCL_IB_TIMEOUT set by environment to 22.", c.logSettings);
  noteLogSettings("NCCL_IB_HCA set to mlx5_0,mlx5_3", c.logSettings);
  noteLogSettings("NCCL_SOCKET_IFNAME set by environment to ens5", c.logSettings);  // the first value stays
  EXPECT_EQ(c.logSettings,
            (std::map<std::string, std::string>{
                {"NCCL_IB_HCA", "mlx5_0,mlx5_3"}, {"NCCL_IB_TIMEOUT", "22"}, {"NCCL_SOCKET_IFNAME", "eth0"}}));
  ConfirmOutcome o = runConfirm("socket_ifname", c);
  EXPECT_EQ(o.status, "refuted") << o.detail;
  EXPECT_EQ(o.detail.find("did not name"), std::string::npos) << o.detail;
  EXPECT_EQ(o.measured["nccl_socket_ifname"], "eth0");
  EXPECT_EQ(o.measured["nccl_socket_ifname_from"], "the log");
  // The log's value wins over this node's: it is what the job ran with.
  c.env["NCCL_SOCKET_IFNAME"] = "ib";
  EXPECT_EQ(runConfirm("socket_ifname", c).measured["nccl_socket_ifname"], "eth0");
  c.logSettings.clear();
  EXPECT_EQ(runConfirm("socket_ifname", c).measured["nccl_socket_ifname_from"], "this node's environment");
}

TEST_F(DoctorConfirm, DevShmMeasuresTheRealMount) {
  ConfirmOutcome o = runConfirm("dev_shm", ConfirmContext{});
  if (o.status == "unknown") GTEST_SKIP() << o.detail;
  EXPECT_GT(o.measured["size_bytes"].get<double>(), 0);
  EXPECT_EQ(o.status == "confirmed", o.measured["size_bytes"].get<double>() < 1024.0 * 1024 * 1024 ||
                                         o.measured["available_bytes"].get<double>() < 256.0 * 1024 * 1024);
}

TEST_F(DoctorConfirm, MemlockFollowsTheProcessLimit) {
  struct rlimit rl {};
  ASSERT_EQ(getrlimit(RLIMIT_MEMLOCK, &rl), 0);
  if (rl.rlim_cur != RLIM_INFINITY) {
    EXPECT_EQ(runConfirm("memlock", {}).status, "confirmed");
  } else {
    EXPECT_EQ(runConfirm("memlock", {}).status, "refuted");
    struct rlimit lower = rl;
    lower.rlim_cur = 65536;  // lowering the soft limit is always allowed
    ASSERT_EQ(setrlimit(RLIMIT_MEMLOCK, &lower), 0);
    EXPECT_EQ(runConfirm("memlock", {}).status, "confirmed");
    setrlimit(RLIMIT_MEMLOCK, &rl);
  }
}

TEST_F(DoctorConfirm, PeermemAndRdmaFromACapturedTree) {
  ConfirmContext c{root_.string(), {}, {}, {}};
  EXPECT_EQ(runConfirm("peermem", c).status, "unknown");  // no NVIDIA driver in the tree
  fs::create_directories(root_ / "sys/module/nvidia");
  EXPECT_EQ(runConfirm("peermem", c).status, "confirmed");
  fs::create_directories(root_ / "sys/kernel/mm/memory_peers/nv_mem");
  std::ofstream(root_ / "sys/kernel/mm/memory_peers/nv_mem/version") << "1.3\n";
  EXPECT_EQ(runConfirm("peermem", c).status, "refuted");
  fs::create_directories(root_ / "sys/class/infiniband/mlx5_0");
  EXPECT_EQ(runConfirm("rdma_devices", c).status, "confirmed");
  fs::create_directories(root_ / "dev/infiniband");
  std::ofstream(root_ / "dev/infiniband/uverbs0") << "";
  EXPECT_EQ(runConfirm("rdma_devices", c).status, "refuted");
  EXPECT_EQ(runConfirm("no_such_check", c).status, "unknown");
}

TEST_F(DoctorConfirm, GpuXidReadsTheKernelLogsRecords) {
  ConfirmContext c{root_.string(), {}, {}, {}};
  EXPECT_EQ(runConfirm("gpu_xid", c).status, "unknown");  // no kernel log in the tree
  fs::create_directories(root_ / "dev");
  // /dev/kmsg's record format: "priority,sequence,microseconds,flags;message", continuation lines indented.
  std::ofstream(root_ / "dev/kmsg") << "6,1021,5123456,-;nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver\n"
                                    << " SUBSYSTEM=module\n";
  EXPECT_EQ(runConfirm("gpu_xid", c).status, "unknown");  // no Xid, and no NVIDIA driver to have logged one
  fs::create_directories(root_ / "sys/module/nvidia");
  ConfirmOutcome o = runConfirm("gpu_xid", c);
  EXPECT_EQ(o.status, "refuted") << o.detail;
  EXPECT_EQ(o.measured["records"], 1);  // the dictionary line belongs to its record
  std::ofstream(root_ / "dev/kmsg", std::ios::app)
      << "4,1022,5200000,-;NVRM: Xid (PCI:0000:3b:00): 31, pid=21437, name=python, Ch 00000008, MMU Fault\n"
      << "4,1023,5200100,-;NVRM: Xid (PCI:0000:3b:00): 31, pid=21437, name=python, Ch 00000008, MMU Fault\n"
      << "4,1024,5300000,-;NVRM: Xid (0000:5e:00): 79, GPU has fallen off the bus.\n"
      << "4,1025,5300001,-;nvidia-nvswitch2: SXid (PCI:0000:c5:00.0): 12028, Non-fatal, Link 32 egress error\n"
      // Not an Xid: the number must follow the address, and the line must be the driver's.
      << "6,1026,5300002,-;python[123]: Xid (PCI:0000:3b:00): 13, printed by a program\n";
  o = runConfirm("gpu_xid", c);
  EXPECT_EQ(o.status, "confirmed") << o.detail;
  EXPECT_EQ(o.measured["xids"], (Json{{"SXid 12028", 1}, {"Xid 31", 2}, {"Xid 79", 1}}));
  EXPECT_NE(o.detail.find("Xid 31 (2 times)"), std::string::npos) << o.detail;
  EXPECT_NE(o.measured["first"].get<std::string>().find("): 31, pid=21437"), std::string::npos);
}

TEST_F(DoctorConfirm, GpuXidOnThisMachineGivesAnAnswerItCanBackUp) {
  // The real /dev/kmsg (or none, or not readable): whatever the answer, it says what it read.
  const ConfirmOutcome o = runConfirm("gpu_xid", ConfirmContext{});
  EXPECT_TRUE(o.status == "confirmed" || o.status == "refuted" || o.status == "unknown") << o.status;
  EXPECT_FALSE(o.detail.empty());
  if (o.status == "confirmed") {
    EXPECT_FALSE(o.measured["xids"].empty());
  }
}

}  // namespace
}  // namespace pf::doctor

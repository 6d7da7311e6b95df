// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "confirm.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>

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
  ConfirmContext c{root_.string(), {}, {{"ifname", "eth2"}}};
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
  ConfirmContext c{root_.string(), {}, {}};
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

}  // namespace
}  // namespace pf::doctor

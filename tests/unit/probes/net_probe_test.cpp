// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The net probe on this machine's captured tree and on small trees built for one situation each.
#include <gtest/gtest.h>

#include "probe.hpp"
#include "temp_tree.hpp"

namespace pf::probes {
namespace {

using test::TempTree;

Result runNet(const std::filesystem::path& root, std::map<std::string, std::string> env = {}) {
  SystemView sys(root, Environment(std::move(env)));
  return Registry<Probe>::instance().create("net")->run(sys, {});
}

const Json* row(const Result& r, const std::string& name) {
  for (const auto& x : r.rows)
    if (x["name"] == name) return &x;
  return nullptr;
}

TEST(NetProbe, ThisMachinePicksEth0AndSeesItsAddresses) {
  Result r = runNet(PF_FIXTURES "/host-thismachine");
  EXPECT_EQ(r.status, Status::kPass) << r.message;
  EXPECT_EQ(r.params["nccl_socket_interfaces"], Json::array({"eth0"}));
  const Json* eth0 = row(r, "eth0");
  ASSERT_NE(eth0, nullptr);
  EXPECT_FALSE((*eth0)["virtual"].get<bool>());
  EXPECT_EQ((*eth0)["driver"], "virtio_net");
  EXPECT_EQ((*eth0)["addresses"][0], "192.0.2.2/24");
  EXPECT_EQ((*row(r, "lo"))["virtual_kind"], "loopback");
  EXPECT_EQ(r.metrics["selected_mtu"], (*eth0)["mtu"]);
  EXPECT_EQ(r.params["bootstrap_subnet"], "192.0.2.0/24");
}

TEST(NetProbe, NonexistentIfnameFailsNamingVariableAndRemedy) {
  Result r = runNet(PF_FIXTURES "/host-thismachine", {{"NCCL_SOCKET_IFNAME", "bogus0"}});
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_NE(r.message.find("NCCL_SOCKET_IFNAME=bogus0"), std::string::npos) << r.message;
  EXPECT_NE(r.remedy.find("NCCL_SOCKET_IFNAME==eth0"), std::string::npos) << r.remedy;
}

TEST(NetProbe, ExactExclusionOfTheOnlyNicLeavesLoopbackAndWarns) {
  Result r = runNet(PF_FIXTURES "/host-thismachine", {{"NCCL_SOCKET_IFNAME", "^=eth0"}});
  EXPECT_EQ(r.status, Status::kWarn) << r.message;
  EXPECT_EQ(r.params["nccl_socket_interfaces"], Json::array({"lo"}));
}

TEST(NetProbe, VethOnlyNodeWarnsButDoesNotFail) {
  TempTree t;
  t.netIf("lo", 1, "unknown", 65536).netIf("eth0", 2, "up", 1500);  // a namespace's veth end renamed eth0
  t.ipv4({{"lo", "127.0.0.1", 8}, {"eth0", "10.77.0.2", 24}});
  Result r = runNet(t.root());
  EXPECT_EQ(r.status, Status::kWarn) << r.message;
  EXPECT_EQ(r.params["nccl_socket_interfaces"], Json::array({"eth0"}));
  EXPECT_TRUE((*row(r, "eth0"))["virtual"].get<bool>());
  Result named = runNet(t.root(), {{"NCCL_SOCKET_IFNAME", "eth0"}});
  EXPECT_EQ(named.status, Status::kWarn) << named.message;
}

// Found by fuzz_procfs: a captured tree whose sysfs values are not UTF-8 made the probe's document unwritable
// (nlohmann type_error 316, then std::terminate). SystemView reads such bytes as '?'; names that are not UTF-8
// are not listed.
TEST(NetProbe, BytesThatAreNotUtf8InACapturedTreeDoNotBreakTheDocument) {
  TempTree t;
  t.netIf("lo", 1, "unknown", 65536).netIf("ens1", 2, "up", 9000, "pci0000:00/0000:00:02.0");
  t.ipv4({{"lo", "127.0.0.1", 8}, {"ens1", "10.0.0.2", 24}});
  t.file("/sys/class/net/ens1/operstate", "u\xffp");
  t.file("/sys/class/net/ens1/address", "02:00:\xc3\x28:00:00:01");
  t.dir("/sys/class/net/bad\xfename");
  Result r = runNet(t.root());
  EXPECT_NO_THROW((void)toJson(r).dump());
  ASSERT_NE(row(r, "ens1"), nullptr);
  EXPECT_EQ((*row(r, "ens1"))["operstate"], "u?p");
  EXPECT_EQ(row(r, "bad\xfename"), nullptr);
  SystemView sys(t.root(), Environment(std::map<std::string, std::string>{}));
  EXPECT_EQ(*sys.read("/sys/class/net/ens1/address"), "02:00:?(:00:00:01");
  EXPECT_EQ(*sys.read("/sys/class/net/lo/operstate"), "unknown");  // valid text is untouched
}

TEST(NetProbe, DownInterfaceSelectedFails) {
  TempTree t;
  t.netIf("lo", 1, "unknown", 65536).netIf("ens1", 2, "up", 9000, "pci0000:00/0000:00:02.0");
  t.netIf("ens2", 3, "down", 9000, "pci0000:00/0000:00:03.0");
  t.ipv4({{"lo", "127.0.0.1", 8}, {"ens1", "10.0.0.2", 24}, {"ens2", "10.1.0.2", 24}});
  EXPECT_EQ(runNet(t.root()).status, Status::kPass);
  Result r = runNet(t.root(), {{"NCCL_SOCKET_IFNAME", "=ens2"}});
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_NE(r.message.find("down"), std::string::npos) << r.message;
  EXPECT_NE(r.remedy.find("ens1"), std::string::npos) << r.remedy;
}

TEST(NetProbe, ValueFromNcclConfAppliesAndEnvironmentWins) {
  TempTree t;
  t.netIf("lo", 1, "unknown", 65536).netIf("ens1", 2, "up", 1500, "pci0000:00/0000:00:02.0");
  t.ipv4({{"lo", "127.0.0.1", 8}, {"ens1", "10.0.0.2", 24}});
  t.file("/etc/nccl.conf", "NCCL_SOCKET_IFNAME=ib");
  Result conf = runNet(t.root());
  EXPECT_EQ(conf.status, Status::kFail);
  EXPECT_NE(conf.message.find("from /etc/nccl.conf"), std::string::npos) << conf.message;
  EXPECT_EQ(runNet(t.root(), {{"NCCL_SOCKET_IFNAME", "ens"}}).status, Status::kPass);
}

TEST(NetProbe, OobIfnameIsCheckedWhenEnabled) {
  Result r =
      runNet(PF_FIXTURES "/host-thismachine", {{"NCCL_OOB_NET_ENABLE", "1"}, {"NCCL_OOB_NET_IFNAME", "=mlx5_0:1"}});
  EXPECT_EQ(r.status, Status::kFail);
  EXPECT_NE(r.message.find("NCCL_OOB_NET_IFNAME"), std::string::npos);
  EXPECT_EQ(
      runNet(PF_FIXTURES "/host-thismachine", {{"NCCL_OOB_NET_ENABLE", "1"}, {"NCCL_OOB_NET_IFNAME", "eth"}}).status,
      Status::kPass);
}

TEST(NetProbe, NoSysfsIsAnError) {
  TempTree t;
  EXPECT_EQ(runNet(t.root()).status, Status::kError);
}

}  // namespace
}  // namespace pf::probes

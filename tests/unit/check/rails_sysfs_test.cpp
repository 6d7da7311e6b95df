// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--rails all` on a captured tree: every RDMA port in device and port order, each with its interface (from the RoCE
// GID's netdev) and that interface's IPv4 address on this machine; a port that is down, or whose interface has no
// address, keeps its place and says why it cannot be tested. The loopback interface stands in for a rail's netdev
// because it has an address on every Linux machine.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../probes/temp_tree.hpp"
#include "rails.hpp"

namespace pf::check {
namespace {

using probes::test::TempTree;
using ::testing::HasSubstr;

void rocePort(TempTree& t, const std::string& dev, const std::string& state, const std::string& netdev) {
  const std::string d = "/sys/class/infiniband/" + dev + "/ports/1";
  t.file(d + "/state", state).file(d + "/link_layer", "Ethernet").file(d + "/rate", "200 Gb/sec (4X HDR)");
  t.file(d + "/gids/0", "fe80:0000:0000:0000:0e42:a1ff:fe9b:1e2a").file(d + "/gid_attrs/ndevs/0", netdev);
}

TEST(RailsSysfs, AllTakesEveryPortInOrderAndSaysWhyOneCannotBeTested) {
  TempTree t;
  rocePort(t, "mlx5_2", "4: ACTIVE", "pfnosuchif0");
  rocePort(t, "mlx5_0", "4: ACTIVE", "lo");
  rocePort(t, "mlx5_1", "1: DOWN", "lo");
  auto rails = discoverRails(parseRailSpec("all"), t.root().string());
  ASSERT_EQ(rails.size(), 3u);
  EXPECT_EQ(rails[0].nic, "mlx5_0 port 1 (lo)");
  EXPECT_EQ(rails[0].netdev, "lo");
  EXPECT_EQ(rails[0].address, "127.0.0.1");
  EXPECT_TRUE(rails[0].unusable.empty());
  EXPECT_EQ(rails[1].nic, "mlx5_1 port 1 (lo)");
  EXPECT_EQ(rails[1].unusable, "the port is not ACTIVE");
  EXPECT_EQ(rails[2].unusable, "its interface pfnosuchif0 has no IPv4 address");
  // A list names RDMA devices too, in the order given.
  auto listed = discoverRails(parseRailSpec("mlx5_2,mlx5_0:1"), t.root().string());
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].nic, "mlx5_2 port 1 (pfnosuchif0)");
  EXPECT_EQ(listed[1].address, "127.0.0.1");
}

}  // namespace
}  // namespace pf::check

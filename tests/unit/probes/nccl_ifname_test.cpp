// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL_SOCKET_IFNAME resolution: prefix lists, '^' exclusion, '=' exact names, the default order.
#include "nccl/nccl_ifname.hpp"

#include <gtest/gtest.h>

namespace pf::probes {
namespace {

IfAddr v4(const std::string& ifname, const std::string& addr, int prefix = 24) {
  IfAddr a{ifname, 4, addr, prefix};
  a.loopback = addr.rfind("127.", 0) == 0;
  a.linkLocal = addr.rfind("169.254.", 0) == 0;
  return a;
}
IfAddr v6(const std::string& ifname, const std::string& addr) {
  IfAddr a{ifname, 6, addr, 64};
  a.loopback = addr == "::1";
  a.linkLocal = addr.rfind("fe80", 0) == 0;
  return a;
}

TEST(NcclIfname, ParsesExcludeExactAndPorts) {
  IfList l = parseIfList("^=docker0,lo");
  EXPECT_TRUE(l.exclude);
  EXPECT_TRUE(l.exact);
  ASSERT_EQ(l.items.size(), 2u);
  EXPECT_EQ(l.items[0].name, "docker0");
  IfList p = parseIfList("=mlx5_0:1,mlx5_1:2");
  EXPECT_FALSE(p.exclude);
  EXPECT_EQ(p.items[1].port, 2);
  EXPECT_EQ(parseIfList("eth,ib").items.size(), 2u);
}

TEST(NcclIfname, PrefixMatchesLongerNamesExactDoesNot) {
  EXPECT_TRUE(matchIfList("eth10", -1, parseIfList("eth")));
  EXPECT_TRUE(matchIfList("mlx5_10", -1, parseIfList("mlx5_1")));  // the documented prefix ambiguity
  EXPECT_FALSE(matchIfList("mlx5_10", -1, parseIfList("=mlx5_1")));
  EXPECT_TRUE(matchIfList("mlx5_1", -1, parseIfList("=mlx5_1")));
  EXPECT_FALSE(matchIfList("mlx5_0", 2, parseIfList("=mlx5_0:1")));
  EXPECT_TRUE(matchIfList("mlx5_0", 1, parseIfList("=mlx5_0:1")));
  EXPECT_TRUE(matchIfList("anything", -1, parseIfList("")));
}

TEST(NcclIfname, FindKeepsOrderSkipsIpv6LoopbackAndDuplicates) {
  std::vector<IfAddr> addrs = {v4("lo", "127.0.0.1", 8), v4("eth0", "10.0.0.2"), v4("eth1", "10.1.0.2"),
                               v6("lo", "::1"),          v6("eth0", "fd00::2"),  v6("eth2", "fe80::1")};
  EXPECT_EQ(findInterfaces("eth", addrs, 0), (std::vector<std::string>{"eth0", "eth1", "eth2"}));
  EXPECT_EQ(findInterfaces("^eth", addrs, 0), (std::vector<std::string>{"lo"}));
  EXPECT_EQ(findInterfaces("^=eth0", addrs, 0), (std::vector<std::string>{"lo", "eth1", "eth2"}));
  EXPECT_EQ(findInterfaces("eth", addrs, 6), (std::vector<std::string>{"eth0", "eth2"}));
  // Only ::1 on lo with AF_INET6: NCCL never selects the IPv6 loopback.
  EXPECT_TRUE(findInterfaces("lo", addrs, 6).empty());
  EXPECT_EQ(findInterfaces("eth", addrs, 0, 1), (std::vector<std::string>{"eth0"}));
}

TEST(NcclIfname, DefaultOrderIbThenAnyButDockerLoThenDockerThenLo) {
  std::vector<IfAddr> all = {v4("lo", "127.0.0.1", 8), v4("docker0", "172.17.0.1", 16), v4("eth0", "10.0.0.2"),
                             v4("ib0", "192.168.1.2")};
  EXPECT_EQ(resolveSocketIfname(std::nullopt, std::nullopt, std::nullopt, all).interfaces,
            (std::vector<std::string>{"ib0"}));
  all.pop_back();
  auto s = resolveSocketIfname(std::nullopt, std::nullopt, std::nullopt, all);
  EXPECT_EQ(s.interfaces, (std::vector<std::string>{"eth0"}));
  EXPECT_FALSE(s.userSet);
  all.pop_back();
  EXPECT_EQ(resolveSocketIfname(std::nullopt, std::nullopt, std::nullopt, all).interfaces,
            (std::vector<std::string>{"docker0"}));
  all.pop_back();
  EXPECT_EQ(resolveSocketIfname(std::nullopt, std::nullopt, std::nullopt, all).interfaces,
            (std::vector<std::string>{"lo"}));
}

TEST(NcclIfname, CommIdPicksTheInterfaceInItsSubnet) {
  std::vector<IfAddr> addrs = {v4("eth0", "10.0.0.2"), v4("eth1", "10.5.0.2")};
  auto s = resolveSocketIfname(std::nullopt, std::nullopt, std::string("10.5.0.9:6000"), addrs);
  EXPECT_EQ(s.interfaces, (std::vector<std::string>{"eth1"}));
}

TEST(NcclIfname, UserValueBypassesDefaultsAndOneCharacterIsIgnored) {
  std::vector<IfAddr> addrs = {v4("lo", "127.0.0.1", 8), v4("eth0", "10.0.0.2")};
  auto s = resolveSocketIfname(std::string("bogus"), std::nullopt, std::nullopt, addrs);
  EXPECT_TRUE(s.userSet);
  EXPECT_TRUE(s.interfaces.empty());
  auto one = resolveSocketIfname(std::string("e"), std::nullopt, std::nullopt, addrs);
  EXPECT_FALSE(one.userSet);
  EXPECT_EQ(one.interfaces, (std::vector<std::string>{"eth0"}));
  ASSERT_EQ(one.notes.size(), 1u);
  auto fam = resolveSocketIfname(std::nullopt, std::string("INET6"), std::nullopt, addrs);
  ASSERT_EQ(fam.notes.size(), 1u);
  EXPECT_NE(fam.notes[0].find("ignores"), std::string::npos);
}

}  // namespace
}  // namespace pf::probes

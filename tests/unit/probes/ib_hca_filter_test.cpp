// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL_IB_HCA resolution: prefix ambiguity (mlx5_1 vs mlx5_10), '=' exact, '^' exclude, ':port'.
#include "ib/ib_hca_filter.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace pf::probes {
namespace {

// Twelve single-port HCAs mlx5_0..mlx5_11, plus a dual-port one, like a large host.
std::vector<HcaPort> host() {
  std::vector<HcaPort> v;
  for (int i = 0; i < 12; ++i) v.push_back({fmt::format("mlx5_{}", i), 1});
  v.push_back({"mlx4_0", 1});
  v.push_back({"mlx4_0", 2});
  return v;
}

std::vector<std::string> names(const HcaSelection& s) {
  std::vector<std::string> out;
  for (const auto& p : s.selected) out.push_back(fmt::format("{}:{}", p.device, p.port));
  return out;
}

TEST(IbHcaFilter, UnsetKeepsEveryPort) {
  HcaSelection s = resolveIbHca(std::nullopt, host());
  EXPECT_FALSE(s.userSet);
  EXPECT_EQ(s.selected.size(), 14u);
  EXPECT_EQ(resolveIbHca(std::string(""), host()).selected.size(), 14u);
}

TEST(IbHcaFilter, PrefixSelectsTheTensAndIsReported) {
  HcaSelection s = resolveIbHca(std::string("mlx5_1"), host());
  EXPECT_EQ(names(s), (std::vector<std::string>{"mlx5_1:1", "mlx5_10:1", "mlx5_11:1"}));
  ASSERT_EQ(s.ambiguous.size(), 1u);
  EXPECT_NE(s.ambiguous[0].find("mlx5_10"), std::string::npos);
  EXPECT_TRUE(s.unmatched.empty());
}

TEST(IbHcaFilter, ExactSelectsOnlyTheName) {
  HcaSelection s = resolveIbHca(std::string("=mlx5_1"), host());
  EXPECT_EQ(names(s), (std::vector<std::string>{"mlx5_1:1"}));
  EXPECT_TRUE(s.ambiguous.empty());
}

TEST(IbHcaFilter, ExcludeWithPrefixDropsTheTensToo) {
  HcaSelection s = resolveIbHca(std::string("^mlx5_1,mlx4"), host());
  EXPECT_EQ(s.selected.size(), 9u);  // mlx5_0, mlx5_2..mlx5_9
  for (const auto& p : s.selected) EXPECT_NE(p.device, "mlx5_10");
  ASSERT_EQ(s.ambiguous.size(), 2u);  // mlx5_1 reaches 3 devices; "mlx4" names no device exactly
  EXPECT_NE(s.ambiguous[0].find("excludes"), std::string::npos);
}

TEST(IbHcaFilter, PortSuffixSelectsOnePort) {
  HcaSelection s = resolveIbHca(std::string("=mlx4_0:2,mlx5_3:1"), host());
  EXPECT_EQ(names(s), (std::vector<std::string>{"mlx5_3:1", "mlx4_0:2"}));
  EXPECT_TRUE(s.unmatched.empty());
}

TEST(IbHcaFilter, ItemsThatMatchNothingAreNamed) {
  HcaSelection s = resolveIbHca(std::string("=mlx5_0,mlx5_0:3,ib_0"), host());
  EXPECT_EQ(names(s), (std::vector<std::string>{"mlx5_0:1"}));
  EXPECT_EQ(s.unmatched, (std::vector<std::string>{"mlx5_0:3", "ib_0"}));
}

}  // namespace
}  // namespace pf::probes

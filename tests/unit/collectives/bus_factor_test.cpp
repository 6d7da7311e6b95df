// SPDX-License-Identifier: Apache-2.0
// The bandwidth formulas against nccl-tests (doc/PERFORMANCE.md and <coll>GetBw in src/*.cu), and a
// verbatim row of its output as posted in NVIDIA/nccl issue #2441.
#include <gtest/gtest.h>

#include <cmath>

#include "collective.hpp"
#include "pf/units.hpp"

namespace pf::collectives {
namespace {

std::unique_ptr<Collective> get(const std::string& name) {
  auto c = Registry<Collective>::instance().create(name);
  EXPECT_NE(c, nullptr) << name;
  return c;
}

TEST(BusFactor, VerbatimNcclTestsRow) {
  // "500000  125000  float  sum  -1  188.69  2.65  3.97  0" with n = 4 ranks (NVIDIA/nccl#2441).
  auto ar = get("all_reduce");
  Layout l = ar->layout(500000 / 4, 4, 4);
  EXPECT_EQ(l.paramCount, 125000u);
  EXPECT_EQ(ar->sizeBytes(l, 4), 500000u);
  double algbw = gbPerSecond(ar->algBytes(l, 4, 4), 188.69e-6);
  double busbw = algbw * ar->busFactor(4);
  EXPECT_EQ(fitNumber(algbw, 6), "2.65");
  EXPECT_EQ(fitNumber(busbw, 6), "3.97");
  // Last row of the same table: 1500000 B in 199.46 us -> 7.52 / 11.28.
  Layout l2 = ar->layout(1500000 / 4, 4, 4);
  double algbw2 = gbPerSecond(ar->algBytes(l2, 4, 4), 199.46e-6);
  EXPECT_EQ(fitNumber(algbw2, 6), "7.52");
  EXPECT_EQ(fitNumber(algbw2 * ar->busFactor(4), 6), "11.28");
}

TEST(BusFactor, EveryCollectiveMatchesNcclTests) {
  for (int n : {1, 2, 3, 4, 8, 64}) {
    double dn = n;
    EXPECT_DOUBLE_EQ(get("all_reduce")->busFactor(n), 2 * (dn - 1) / dn);
    EXPECT_DOUBLE_EQ(get("all_gather")->busFactor(n), (dn - 1) / dn);
    EXPECT_DOUBLE_EQ(get("reduce_scatter")->busFactor(n), (dn - 1) / dn);
    EXPECT_DOUBLE_EQ(get("alltoall")->busFactor(n), (dn - 1) / dn);
    EXPECT_DOUBLE_EQ(get("broadcast")->busFactor(n), 1.0);
    EXPECT_DOUBLE_EQ(get("reduce")->busFactor(n), 1.0);
    EXPECT_DOUBLE_EQ(get("sendrecv")->busFactor(n), 1.0);
  }
  EXPECT_EQ(get("all_reduce")->busFactor(1), 0.0);  // one rank: no bus traffic
}

TEST(Layout, SplitCollectivesRoundTo16BytesAsNcclTests) {
  // all_gather, 4 ranks, 1000 floats requested: 250 per rank rounded down to a multiple of 4 floats = 248.
  Layout ag = get("all_gather")->layout(1000, 4, 4);
  EXPECT_EQ(ag.paramCount, 248u);
  EXPECT_EQ(ag.sendCount, 248u);
  EXPECT_EQ(ag.recvCount, 992u);
  EXPECT_EQ(ag.sendInPlaceOffset, 248u);
  EXPECT_EQ(get("all_gather")->algBytes(ag, 4, 4), 992.0 * 4);  // S = total output
  Layout rs = get("reduce_scatter")->layout(1000, 4, 4);
  EXPECT_EQ(rs.sendCount, 992u);
  EXPECT_EQ(rs.recvCount, 248u);
  EXPECT_EQ(rs.recvInPlaceOffset, 248u);
  Layout a2a = get("alltoall")->layout(1000, 3, 8);  // doubles: multiple of 2 elements
  EXPECT_EQ(a2a.paramCount, 332u);
  EXPECT_EQ(a2a.sendCount, 996u);
  // int8 rounds to 16 elements.
  EXPECT_EQ(get("all_gather")->layout(100, 4, 1).paramCount, 16u);
  // all_reduce and broadcast keep the count unchanged.
  EXPECT_EQ(get("broadcast")->layout(1001, 4, 1).paramCount, 1001u);
}

TEST(Layout, RegistryHasTheSevenCollectives) {
  EXPECT_EQ(Registry<Collective>::instance().keys(),
            (std::vector<std::string>{"all_gather", "all_reduce", "alltoall", "broadcast", "reduce", "reduce_scatter",
                                      "sendrecv"}));
}

}  // namespace
}  // namespace pf::collectives

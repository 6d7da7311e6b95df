// SPDX-License-Identifier: Apache-2.0
// The table must be byte-compatible with nccl-tests' util.cu output (the verbatim output posted in NVIDIA/nccl
// issue #2441).
#include "nccl_table.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace pf::reports {
namespace {

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(NcclTable, HeaderMatchesNcclTestsVerbatim) {
  Json params = {{"collective", "all_reduce"}, {"backend", "nccl"}, {"min_bytes", 500000},
                 {"max_bytes", 1500000},       {"step_factor", 1},  {"step_bytes", 100000},
                 {"warmup_iters", 1},          {"iters", 20},       {"check_iters", 1}};
  auto h = lines(ncclTableHeader(sweepParamsFromJson(params), Json::array(), "0.1.0", false));
  ASSERT_GE(h.size(), 8u);
  EXPECT_EQ(h[1], "# Collective test starting: all_reduce_perf");
  EXPECT_EQ(h[2],
            "# nThread 1 nGpus 1 minBytes 500000 maxBytes 1500000 step: 100000(bytes) warmup iters: 1 iters: 20 agg "
            "iters: 1 validation: 1 graph: 0 unalign: 0");
  size_t n = h.size();
  EXPECT_EQ(h[n - 3],
            "#                                                              out-of-place                       "
            "in-place          ");
  EXPECT_EQ(h[n - 2],
            "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time  "
            " algbw   busbw  #wrong ");
  EXPECT_EQ(h[n - 1],
            "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  "
            "(GB/s)  (GB/s)         ");
}

TEST(NcclTable, RowMatchesNcclTestsVerbatim) {
  SweepRow out, in;
  for (SweepRow* r : {&out, &in}) {
    r->size_bytes = 500000;
    r->count = 125000;
    r->dtype = "float";
    r->op = "sum";
    r->root = -1;
    r->wrong = 0;
  }
  out.time_us = 188.69;
  out.algbw_gbps = 2.6498;
  out.busbw_gbps = 3.9747;
  in.time_us = 187.07;
  in.algbw_gbps = 2.6728;
  in.busbw_gbps = 4.0092;
  EXPECT_EQ(ncclTableRow(out, in, false),
            "      500000        125000     float     sum      -1   188.69    2.65    3.97       0   187.07    2.67    "
            "4.01       0\n");
  out.wrong.reset();
  EXPECT_NE(ncclTableRow(out, in, false).find("    N/A"), std::string::npos);
}

TEST(NcclTable, FooterMatchesNcclTests) {
  auto f = lines(ncclTableFooter("all_reduce", 0, 7.20321));
  EXPECT_EQ(f[0], "# Out of bounds values : 0 OK");
  EXPECT_EQ(f[1], "# Avg bus bandwidth    : 7.20321 ");
  EXPECT_EQ(f[3], "# Collective test concluded: all_reduce_perf");
  EXPECT_EQ(lines(ncclTableFooter("all_reduce", 3, 1))[0], "# Out of bounds values : 3 FAILED");
}

}  // namespace
}  // namespace pf::reports

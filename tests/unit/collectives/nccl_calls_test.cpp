// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL call table, without a GPU (nothing is launched). A call made of sends and receives in one NCCL group
// says how many elements it sends, so that in place the backend sends from a copy: NCCL does not allow one buffer
// to be both sent and received in one group (issue 15). The collectives NCCL runs in place itself say nothing.
#include "nccl/nccl_calls.hpp"

#include <gtest/gtest.h>

namespace pf::collectives {
namespace {

TEST(NcclCalls, GroupedSendsAndReceivesStageInPlace) {
  const auto& table = CallTable<NcclCall>::instance();
  ASSERT_NE(table.get("alltoall", "nccl").groupedSendElements, nullptr);
  EXPECT_EQ(table.get("alltoall", "nccl").groupedSendElements(4, 3), 12u);  // a block of 4 for each of 3 ranks
  ASSERT_NE(table.get("sendrecv", "nccl").groupedSendElements, nullptr);
  EXPECT_EQ(table.get("sendrecv", "nccl").groupedSendElements(4, 3), 4u);
  for (const char* key : {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce"})
    EXPECT_EQ(table.get(key, "nccl").groupedSendElements, nullptr) << key;
}

}  // namespace
}  // namespace pf::collectives

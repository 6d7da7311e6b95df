// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL pair engine without a GPU (made, never initialised). A completed ncclSend does not mean the receiver
// has the data, so a bandwidth burst must end on the receiver's acknowledgement (pair_protocol.cpp; the
// protocol's handling of it is PairProtocol's test with the scripted engine); it used to time the sender only.
#include "nccl/nccl_pair_engine.hpp"

#include <gtest/gtest.h>

namespace pf::check {
namespace {

TEST(NcclPairEngine, BurstsEndOnTheReceiversAcknowledgement) {
  std::unique_ptr<PairEngine> e = makeNcclPairEngine();
  EXPECT_TRUE(e->sendCompletesBeforeDelivery());
}

}  // namespace
}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "buckets.hpp"

#include <gtest/gtest.h>

using namespace pf::scaling;

namespace {
ModelSpec modelSpec() {
  ModelSpec s;
  s.input = 64;
  s.width = 128;
  s.depth = 4;
  s.output = 8;
  return s;
}
}  // namespace

TEST(Buckets, ReverseParameterOrderAndContiguous) {
  Mlp m(modelSpec());
  // W1,W2 are 128x128 floats = 64 KiB each; a 70 KiB cap forces several buckets.
  auto buckets = makeBuckets(m.slots(), 70 * 1024);
  ASSERT_GE(buckets.size(), 3u);
  // The first bucket starts with the last parameter (last layer's bias) at gradient offset 0.
  EXPECT_EQ(buckets.front().slots.front(), static_cast<int>(m.slots().size()) - 1);
  EXPECT_EQ(buckets.front().offset, 0u);
  int prevSlot = static_cast<int>(m.slots().size());
  std::size_t expectOffset = 0, total = 0;
  for (const auto& b : buckets) {
    EXPECT_EQ(b.offset, expectOffset) << "buckets tile the gradient buffer in order";
    expectOffset += b.count;
    total += b.count;
    EXPECT_TRUE(b.count * 4 <= 70 * 1024 || b.slots.size() == 1) << "cap respected unless one tensor is larger";
    for (int s : b.slots) {
      EXPECT_EQ(s, prevSlot - 1) << "strictly reverse registration order";
      prevSlot = s;
    }
  }
  EXPECT_EQ(total, m.spec().paramCount());
  // Ready layers never increase: later buckets wait for earlier (lower) layers.
  for (std::size_t i = 1; i < buckets.size(); ++i)
    EXPECT_LE(buckets[i].readyAfterLayer, buckets[i - 1].readyAfterLayer);
  EXPECT_EQ(buckets.back().readyAfterLayer, 0);
}

TEST(Buckets, DefaultCapMakesOneBucketForSmallModel) {
  Mlp m(modelSpec());
  auto buckets = makeBuckets(m.slots(), 25u << 20);
  ASSERT_EQ(buckets.size(), 1u);
  EXPECT_EQ(buckets[0].count, m.spec().paramCount());
}

TEST(Buckets, OversizedTensorGetsItsOwnBucket) {
  Mlp m(modelSpec());
  auto buckets = makeBuckets(m.slots(), 1024);  // smaller than any weight matrix
  std::size_t total = 0;
  for (const auto& b : buckets) {
    if (b.count * 4 > 1024) {
      EXPECT_EQ(b.slots.size(), 1u);
    }
    total += b.count;
  }
  EXPECT_EQ(total, m.spec().paramCount());
}

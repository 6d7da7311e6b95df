// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Gradient buckets as PyTorch DDP forms them: parameters taken in reverse registration order (the order
// backward produces their gradients), packed greedily until a bucket reaches the cap (--bucket-cap-mb,
// default 25 MiB as DDP). A bucket becomes ready when the last of its parameters' gradients exists; because
// the gradient buffer is laid out in the same reverse order, every bucket is one contiguous slice.
// (DDP also makes its first bucket small, 1 MiB, to start communicating early; we keep one cap for all
// buckets so the model's predictions stay simple, and say so in docs/scale.md.)
#pragma once

#include <cstddef>
#include <vector>

#include "model.hpp"

namespace pf::scaling {

struct Bucket {
  std::size_t offset = 0;   ///< first float in the gradient buffer
  std::size_t count = 0;    ///< floats
  std::vector<int> slots;   ///< indices into Mlp::slots(), in the order they were added (reverse params)
  int readyAfterLayer = 0;  ///< backward layer after which every gradient of the bucket exists
};

/// Assigns parameters to buckets of at most `capBytes` (a parameter larger than the cap gets its own bucket).
std::vector<Bucket> makeBuckets(const std::vector<ParamSlot>& slots, std::size_t capBytes);

}  // namespace pf::scaling

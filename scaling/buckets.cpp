// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "buckets.hpp"

#include <algorithm>

namespace pf::scaling {

std::vector<Bucket> makeBuckets(const std::vector<ParamSlot>& slots, std::size_t capBytes) {
  std::vector<Bucket> out;
  Bucket cur;
  bool open = false;
  for (int i = static_cast<int>(slots.size()) - 1; i >= 0; --i) {
    const auto& s = slots[i];
    const std::size_t bytes = s.size * sizeof(float);
    if (open && (cur.count * sizeof(float) + bytes > capBytes)) {
      out.push_back(cur);
      open = false;
    }
    if (!open) {
      cur = Bucket{};
      cur.offset = s.gradOffset;
      cur.readyAfterLayer = s.layer;
      open = true;
    }
    cur.slots.push_back(i);
    cur.count += s.size;
    // Backward walks layers downwards, so the bucket is complete after its lowest layer is done.
    cur.readyAfterLayer = std::min(cur.readyAfterLayer, s.layer);
  }
  if (open) out.push_back(cur);
  return out;
}

}  // namespace pf::scaling

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// broadcast: the root's buffer reaches every rank. busbw = algbw (factor 1): the buffer crosses each link once.
#include "collective.hpp"
#include "verify.hpp"

namespace pf::collectives {
namespace {

class Broadcast final : public Collective {
 public:
  bool rooted() const override { return true; }
  Layout layout(size_t count, int, size_t) const override { return {count, count, count, 0, 0}; }
  double algBytes(const Layout& l, int, size_t es) const override { return double(l.paramCount) * es; }
  double busFactor(int) const override { return 1.0; }
  bool expected(void* out, const Layout& l, const CollArgs& a) const override {
    for (size_t i = 0; i < l.recvCount; ++i)
      storeValue(a.dtype, out, i, inputValue(a.dtype, RedOp::kNone, a.root, a.nranks, i, a.seed));
    return true;
  }
};

PF_REGISTER_COLLECTIVE(Broadcast, "broadcast");

}  // namespace
}  // namespace pf::collectives

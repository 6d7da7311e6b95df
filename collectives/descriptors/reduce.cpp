// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// reduce: the root receives the reduction of all inputs; other ranks' receive buffers are undefined and not
// checked. busbw = algbw (factor 1).
#include "collective.hpp"
#include "verify.hpp"

namespace pf::collectives {
namespace {

class Reduce final : public Collective {
 public:
  bool reduces() const override { return true; }
  bool rooted() const override { return true; }
  Layout layout(size_t count, int, size_t) const override { return {count, count, count, 0, 0}; }
  double algBytes(const Layout& l, int, size_t es) const override { return double(l.paramCount) * es; }
  double busFactor(int) const override { return 1.0; }
  bool expected(void* out, const Layout& l, const CollArgs& a) const override {
    if (a.rank != a.root) return false;
    for (size_t i = 0; i < l.recvCount; ++i)
      storeValue(a.dtype, out, i, expectedReduction(a.dtype, a.op, a.nranks, i, a.seed));
    return true;
  }
};

PF_REGISTER_COLLECTIVE(Reduce, "reduce");

}  // namespace
}  // namespace pf::collectives

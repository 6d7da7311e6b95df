// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// all_reduce: every rank ends with the reduction of all inputs. busbw = algbw * 2(n-1)/n, because a ring
// all-reduce moves 2(n-1)/n of the buffer over each rank's link (nccl-tests doc/PERFORMANCE.md).
#include "collective.hpp"
#include "verify.hpp"

namespace pf::collectives {
namespace {

class AllReduce final : public Collective {
 public:
  bool reduces() const override { return true; }
  Layout layout(size_t count, int, size_t) const override { return {count, count, count, 0, 0}; }
  double algBytes(const Layout& l, int, size_t es) const override { return double(l.paramCount) * es; }
  double busFactor(int n) const override { return 2.0 * (n - 1) / n; }
  bool expected(void* out, const Layout& l, const CollArgs& a) const override {
    for (size_t i = 0; i < l.recvCount; ++i)
      storeValue(a.dtype, out, i, expectedReduction(a.dtype, a.op, a.nranks, i, a.seed));
    return true;
  }
};

PF_REGISTER_COLLECTIVE(AllReduce, "all_reduce");

}  // namespace
}  // namespace pf::collectives

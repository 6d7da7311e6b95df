// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// all_gather: rank r's block lands at offset r*count on every rank. S is the total output (count*n), and
// busbw = algbw * (n-1)/n: each rank receives the n-1 blocks it does not have.
#include "collective.hpp"
#include "verify.hpp"

namespace pf::collectives {
namespace {

class AllGather final : public Collective {
 public:
  Layout layout(size_t count, int n, size_t es) const override {
    size_t base = splitCount(count, n, es);
    // In place, rank r's input already sits in its slot of the output: send = recv + r*base.
    return {base, base * n, base, base, 0};
  }
  double algBytes(const Layout& l, int n, size_t es) const override { return double(l.paramCount) * es * n; }
  double busFactor(int n) const override { return double(n - 1) / n; }
  bool expected(void* out, const Layout& l, const CollArgs& a) const override {
    for (int r = 0; r < a.nranks; ++r)
      for (size_t j = 0; j < l.paramCount; ++j)
        storeValue(a.dtype, out, r * l.paramCount + j, inputValue(a.dtype, RedOp::kNone, r, a.nranks, j, a.seed));
    return true;
  }
};

PF_REGISTER_COLLECTIVE(AllGather, "all_gather");

}  // namespace
}  // namespace pf::collectives

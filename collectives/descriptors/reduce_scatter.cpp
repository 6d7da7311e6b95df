// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// reduce_scatter: rank r receives block r of the reduction of all inputs. S is the total input (count*n),
// busbw = algbw * (n-1)/n.
#include "collective.hpp"
#include "verify.hpp"

namespace pf::collectives {
namespace {

class ReduceScatter final : public Collective {
 public:
  bool reduces() const override { return true; }
  Layout layout(size_t count, int n, size_t es) const override {
    size_t base = splitCount(count, n, es);
    // In place, rank r's output is block r of its own input buffer: recv = recvbuf + r*base.
    return {base * n, base, base, 0, base};
  }
  double algBytes(const Layout& l, int n, size_t es) const override { return double(l.paramCount) * es * n; }
  double busFactor(int n) const override { return double(n - 1) / n; }
  bool expected(void* out, const Layout& l, const CollArgs& a) const override {
    size_t first = static_cast<size_t>(a.rank) * l.paramCount;
    for (size_t j = 0; j < l.recvCount; ++j)
      storeValue(a.dtype, out, j, expectedReduction(a.dtype, a.op, a.nranks, first + j, a.seed));
    return true;
  }
};

PF_REGISTER_COLLECTIVE(ReduceScatter, "reduce_scatter");

}  // namespace
}  // namespace pf::collectives

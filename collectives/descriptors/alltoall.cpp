// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// alltoall: block j of rank r's input goes to rank j, landing at offset r. S = count*n, busbw = algbw*(n-1)/n
// (the block a rank keeps for itself does not cross a link).
#include "collective.hpp"
#include "verify.hpp"

namespace pf::collectives {
namespace {

class AllToAll final : public Collective {
 public:
  Layout layout(size_t count, int n, size_t es) const override {
    size_t base = splitCount(count, n, es);
    return {base * n, base * n, base, 0, 0};
  }
  double algBytes(const Layout& l, int n, size_t es) const override { return double(l.paramCount) * es * n; }
  double busFactor(int n) const override { return double(n - 1) / n; }
  bool expected(void* out, const Layout& l, const CollArgs& a) const override {
    size_t mine = static_cast<size_t>(a.rank) * l.paramCount;
    for (int r = 0; r < a.nranks; ++r)
      for (size_t j = 0; j < l.paramCount; ++j)
        storeValue(a.dtype, out, r * l.paramCount + j,
                   inputValue(a.dtype, RedOp::kNone, r, a.nranks, mine + j, a.seed));
    return true;
  }
};

PF_REGISTER_COLLECTIVE(AllToAll, "alltoall");

}  // namespace
}  // namespace pf::collectives

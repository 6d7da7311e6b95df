// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// sendrecv: a ring shift, as nccl-tests' sendrecv_perf: rank r sends to r+1 and receives from r-1 at the same
// time. busbw = algbw (factor 1).
#include "collective.hpp"
#include "verify.hpp"

namespace pf::collectives {
namespace {

class SendRecv final : public Collective {
 public:
  Layout layout(size_t count, int, size_t) const override { return {count, count, count, 0, 0}; }
  double algBytes(const Layout& l, int, size_t es) const override { return double(l.paramCount) * es; }
  double busFactor(int) const override { return 1.0; }
  bool expected(void* out, const Layout& l, const CollArgs& a) const override {
    int from = (a.rank + a.nranks - 1) % a.nranks;
    for (size_t i = 0; i < l.recvCount; ++i)
      storeValue(a.dtype, out, i, inputValue(a.dtype, RedOp::kNone, from, a.nranks, i, a.seed));
    return true;
  }
};

PF_REGISTER_COLLECTIVE(SendRecv, "sendrecv");

}  // namespace
}  // namespace pf::collectives

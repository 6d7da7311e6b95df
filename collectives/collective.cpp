// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "collective.hpp"

#include "verify.hpp"

namespace pf::collectives {

void Collective::fillInput(void* send, const Layout& l, const CollArgs& a) const {
  for (size_t i = 0; i < l.sendCount; ++i)
    storeValue(a.dtype, send, i, inputValue(a.dtype, a.op, a.rank, a.nranks, i, a.seed));
}

size_t splitCount(size_t count, int nranks, size_t eltSize) {
  size_t align = 16 / eltSize;  // elements per 16 bytes; eltSize is 1, 2, 4 or 8
  return (count / static_cast<size_t>(nranks)) & ~(align - 1);
}

}  // namespace pf::collectives

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "rdma_library.hpp"

namespace pf::probes {
VerbsQuery queryVerbs() {
  VerbsQuery q;
  q.note = "this preflight was built without libibverbs (apt-get install libibverbs-dev and rebuild)";
  return q;
}
}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "rdma_library.hpp"

namespace pf::probes {
const VerbsQuery& queryVerbs() {
  static const VerbsQuery q{
      false, "this preflight was built without libibverbs (apt-get install libibverbs-dev and rebuild)", 0, {}, {}};
  return q;
}
}  // namespace pf::probes

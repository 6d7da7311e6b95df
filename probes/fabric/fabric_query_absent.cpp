// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "rdma_library.hpp"

namespace pf::probes {
FabricQuery queryEfaFabric() {
  FabricQuery q;
  q.result = "this preflight was built without libfabric (apt-get install libfabric-dev and rebuild)";
  return q;
}
}  // namespace pf::probes

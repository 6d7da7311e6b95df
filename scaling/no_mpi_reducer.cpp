// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// Built instead of mpi_reducer.cpp when there is no MPI: only one-rank groups exist.
#include "pf/error.hpp"
#include "reducer.hpp"

namespace pf::scaling {

bool haveMpiReducer() { return false; }

void idleBarrier() {}

std::unique_ptr<GradReducer> makeMpiReducer(int n) {
  if (n == 1) return makeSoloReducer();
  throw UsageError(
      "this preflight was built without MPI, so `scale` can only run 1 rank: install Open MPI "
      "(apt-get install openmpi-bin libopenmpi-dev) and rebuild");
}

}  // namespace pf::scaling

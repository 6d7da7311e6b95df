// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
// Linked instead of core/mpi/ when the build has no MPI.
#include "pf/bootstrap_factory.hpp"

namespace pf {
std::unique_ptr<Bootstrap> makeMpiBootstrap(int*, char***) { return nullptr; }
bool haveMpi() { return false; }
}  // namespace pf

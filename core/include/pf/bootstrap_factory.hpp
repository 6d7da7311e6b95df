// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#pragma once

#include <memory>

#include "pf/bootstrap.hpp"

namespace pf {

/// The MPI bootstrap (MPI_Init on first call, MPI_Finalize when destroyed), or nullptr when this build has no
/// MPI. Defined in core/mpi/ when MPI is found and by a stub otherwise, so callers need no #ifdef.
std::unique_ptr<Bootstrap> makeMpiBootstrap(int* argc, char*** argv);

/// True when this build can launch and join MPI jobs.
bool haveMpi();

}  // namespace pf

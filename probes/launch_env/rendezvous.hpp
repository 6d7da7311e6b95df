// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The rendezvous point of torch.distributed-style launches: MASTER_ADDR must resolve on every node, and
// MASTER_PORT must be free on the master before launch (EADDRINUSE otherwise) and reachable from the others.
#pragma once

#include "env_checks.hpp"

namespace pf::probes {

/// Result "env.master": skipped without a master or without network checks.
Result checkRendezvous(const JobEnv& job, const SystemView& sys, const EnvCheckOptions& opt);

}  // namespace pf::probes

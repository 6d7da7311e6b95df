// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Without the probes component there is no SystemView to read sysfs through: the counters are reported as not
// read (PortCounterWatch's summary says so), never as clean, and `--rails all` finds no RDMA ports (interfaces
// can still be listed by name).
#include "port_counters.hpp"
#include "rails.hpp"

namespace pf::check {

std::optional<std::vector<PortCounters>> readPortCounters(const std::string&) { return std::nullopt; }

std::vector<RdmaRailPort> readRdmaRailPorts(const std::string&) { return {}; }

}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A node-local probe: one file each, self-registered with PF_REGISTER_PROBE. A probe reads the node through
// a SystemView and returns one Result (key "probe.<name>", kind "probe") whose status is
//   pass    - what was looked for is there and sound,
//   warn    - it works but something will cost performance or break later,
//   fail    - a job on this node will fail or be wrong,
//   absent  - the hardware or library is not on this node (evidence says what was looked for),
//   error   - the probe itself could not run (the message says why).
// evidence lists {"what","value","source"} objects: the values read and where from. warn and fail carry a
// remedy a person can act on. Tables (ports, interfaces, GPUs) go in rows, one object per item.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pf/kernel_log.hpp"
#include "pf/registry.hpp"
#include "pf/result.hpp"
#include "system_view.hpp"

namespace pf::probes {

struct ProbeOptions {
  bool quick = false;  ///< skip measurements that take more than ~100 ms (p2p copy bandwidth)
  /// False on every rank of a node but its first (local rank 0): a measurement that loads the node's devices
  /// (p2p copy bandwidth) runs once per node, not on all its ranks at once, which would contend and warn falsely.
  bool firstOnNode = true;
  /// DCGM's diagnostic level for the dcgm probe (`--dcgm LEVEL`, 1-4); 0: not run.
  int dcgmLevel = 0;
  /// `--xid-since`: the gpu_xid probe looks at the kernel log from this point on; none: since boot.
  std::optional<KernelLogSince> xidSince;
};

/// key() is the registry key ("net", "ib", ...), handed over by the registry (pf::Registered).
class Probe : public Registered {
 public:
  virtual std::string description() const = 0;  ///< one line for `preflight probe --list`
  /// Runs the probe. Must not throw for anything the node can present; the runner turns a stray
  /// exception into an `error` result so one probe never hides the others.
  virtual Result run(const SystemView& sys, const ProbeOptions& opt) const = 0;
};

/// Runs the registered probes (all, or those named in `only`) in name order.
/// @throws UsageError when `only` names a probe that does not exist
std::vector<Result> runProbes(const SystemView& sys, const ProbeOptions& opt,
                              const std::vector<std::string>& only = {});

/// Appends one evidence entry {"what", "value", "source"} to a result.
void addEvidence(Result& r, const std::string& what, const Json& value, const std::string& source);

}  // namespace pf::probes

#define PF_REGISTER_PROBE(Type, key) PF_REGISTER(::pf::probes::Probe, Type, key)

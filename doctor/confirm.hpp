// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `--confirm`: small node checks that test a diagnosis's cause on the machine the doctor runs on. Each rule
// names its check in "probe"; the outcome is "confirmed" (the node has the problem), "refuted" (it does not) or
// "unknown" (this node cannot tell, e.g. no NVIDIA driver here). Files are read under `root` so tests can
// point the checks at a captured tree; resource limits are the calling process's own (getrlimit).
// These are deliberately self-contained: the probes component (probes/) has fuller versions.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "pf/result.hpp"

namespace pf::doctor {

struct ConfirmContext {
  std::string root = "/";
  std::map<std::string, std::string> env;       ///< NCCL_SOCKET_IFNAME etc. as this node has them
  std::map<std::string, std::string> captures;  ///< values the rule captured from the log (e.g. "ifname")
  /// NCCL variables the log says were set ("NCCL_SOCKET_IFNAME set by environment to eth0"): what the job ran
  /// with, which a rule's captures may not hold.
  std::map<std::string, std::string> logSettings;
};

/// Adds to `into` the NCCL variables a log line says were set: "NCCL_X set by environment to V" and
/// "NCCL_X set to V" (NCCL's INFO wording); the first value of each name is kept.
void noteLogSettings(std::string_view line, std::map<std::string, std::string>& into);

struct ConfirmOutcome {
  std::string status;  ///< "confirmed", "refuted", "unknown"
  std::string detail;  ///< one sentence, with the measured value
  Json measured = Json::object();
};

/// The check names rules may use in "probe".
const std::vector<std::string>& confirmChecks();

/// Runs the named check; an unknown name gives "unknown" with a message saying so.
ConfirmOutcome runConfirm(const std::string& check, const ConfirmContext& ctx);

}  // namespace pf::doctor

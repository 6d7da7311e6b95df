// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// NCCL's own view of its settings: the environment first, then the user's file (NCCL_CONF_FILE since 2.23,
// else ~/.nccl.conf), then /etc/nccl.conf. NCCL loads the files with setenv(..., overwrite=0), so a variable
// already in the environment wins and the first file that sets a name wins over later ones (NCCL User
// Guide, "Environment Variables"). Probes that check an NCCL_* value ask here, never the environment alone.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "system_view.hpp"

namespace pf::probes {

struct NcclSetting {
  std::string name;
  std::string value;
  std::string source;  ///< "environment" or the file's path
};

/// A line of a configuration file that NCCL would not apply the way its author meant.
struct NcclConfProblem {
  std::string file;
  int line = 0;
  std::string text;
  std::string why;
};

struct NcclSettings {
  std::map<std::string, NcclSetting> values;  ///< every NCCL_* name (and others set in the files)
  std::vector<std::string> filesRead;         ///< configuration files that exist, in NCCL's order
  std::vector<NcclConfProblem> problems;

  std::optional<std::string> get(const std::string& name) const;
  /// "NCCL_SOCKET_IFNAME=eth0 (from /etc/nccl.conf)" for messages.
  std::string describe(const std::string& name) const;
};

/// Reads the environment and the configuration files of `sys` as NCCL would at init.
NcclSettings readNcclSettings(const SystemView& sys);

}  // namespace pf::probes

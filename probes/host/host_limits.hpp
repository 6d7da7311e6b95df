// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The host facts NCCL trips over, read from procfs (proc(5)): resource limits of this process
// (/proc/self/limits), the /dev/shm mount (/proc/mounts, statvfs on a live node) and systemd-logind's RemoveIPC.
#pragma once

#include <optional>
#include <string>

#include "system_view.hpp"

namespace pf::probes {

/// One row of /proc/self/limits; nullopt = "unlimited".
struct Limit {
  std::optional<long long> soft, hard;
  bool found = false;
};

/// @param name the row's name as the kernel prints it, e.g. "Max locked memory"
Limit readLimit(const SystemView& sys, const std::string& name);

/// "unlimited" or the number.
std::string limitText(const std::optional<long long>& v);

struct ShmInfo {
  bool mounted = false;
  std::optional<long long> sizeBytes;  ///< size= option, or statvfs total on a live node
  std::optional<long long> freeBytes;  ///< statvfs, live only
  std::string source;
};

ShmInfo readShm(const SystemView& sys);

/// systemd-logind's RemoveIPC as configured: /etc/systemd/logind.conf then logind.conf.d/*.conf (later wins);
/// nullopt when logind is not installed. systemd's default is "yes".
std::optional<bool> readRemoveIpc(const SystemView& sys, std::string& source);

}  // namespace pf::probes

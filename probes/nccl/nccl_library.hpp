// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The NCCL a job on this node would load, and its net plugin. On a live node the dynamic loader answers
// (dlopen("libnccl.so.2") then ncclGetVersion, the same lookup a framework does); on a captured tree only files
// are searched. Plugin names follow NCCL_NET_PLUGIN's documented rule: the value as given, then
// libnccl-net-<value>.so; unset means libnccl-net.so; "none" disables plugins.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "system_view.hpp"

namespace pf::probes {

struct NcclLibrary {
  bool found = false;
  int versionCode = 0;    ///< NCCL_VERSION_CODE: major*10000 + minor*100 + patch (2.9 and later)
  std::string version;    ///< "2.21.5"
  std::string path;       ///< where the loader found it
  std::string lookedFor;  ///< what was tried, for an "absent" result
};

/// dlopen + ncclGetVersion on a live node; on a captured tree, the library file in the usual directories
/// (version from its file name, libnccl.so.2.21.5) when present.
NcclLibrary findNcclLibrary(const SystemView& sys);

/// "2.21.5" from a version code.
std::string ncclVersionString(int code);

struct NetPluginLookup {
  std::vector<std::string> candidates;  ///< names NCCL would try, in order
  std::string loaded;                   ///< the first that loads (live) or exists (tree); empty when none
  bool disabled = false;                ///< NCCL_NET_PLUGIN=none
  std::string error;                    ///< dlerror() of the last candidate when none loaded
  /// The CollNet entry point the loaded plugin exports ("ncclCollNetPlugin_v8": NCCL's in-network reduction,
  /// SHARP's plugin has one); empty when it exports none or the node is a captured tree (not loaded).
  std::string collNet;
};

NetPluginLookup findNetPlugin(const SystemView& sys, const std::optional<std::string>& value);

}  // namespace pf::probes

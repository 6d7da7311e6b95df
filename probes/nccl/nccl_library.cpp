// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "nccl/nccl_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <link.h>

#include "probe_util.hpp"

namespace pf::probes {
namespace {

/// Where a captured tree's libraries can be: the loader's default paths, CUDA's and the plugin installers'.
std::vector<std::string> libraryDirs(const SystemView& sys) {
  std::vector<std::string> dirs;
  if (auto ld = sys.env().get("LD_LIBRARY_PATH"))
    for (const auto& d : splitList(*ld, ":")) dirs.push_back(d);
  for (const char* d : {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
                        "/usr/local/lib", "/usr/local/cuda/lib64", "/usr/local/cuda/lib", "/opt/amazon/ofi-nccl/lib",
                        "/opt/amazon/efa/lib", "/opt/aws-ofi-nccl/lib"})
    dirs.emplace_back(d);
  return dirs;
}

/// The first file named `name` (or, with `versioned`, `name.*`) in the library directories of a tree.
std::string findFile(const SystemView& sys, const std::string& name, bool versioned) {
  for (const auto& dir : libraryDirs(sys)) {
    if (sys.exists(dir + "/" + name)) return dir + "/" + name;
    if (!versioned) continue;
    for (const auto& f : sys.list(dir))
      if (f.rfind(name + ".", 0) == 0) return dir + "/" + f;
  }
  return "";
}

}  // namespace

std::string ncclVersionString(int code) {
  if (code <= 0) return "";
  if (code < 10000) return fmt::format("{}.{}.{}", code / 1000, (code % 1000) / 100, code % 100);  // before 2.9
  return fmt::format("{}.{}.{}", code / 10000, (code % 10000) / 100, code % 100);
}

NcclLibrary findNcclLibrary(const SystemView& sys) {
  NcclLibrary lib;
  if (!sys.isLive()) {
    lib.lookedFor = "libnccl.so.2 in LD_LIBRARY_PATH and the usual library directories of the tree";
    std::string path = findFile(sys, "libnccl.so.2", true);
    if (path.empty()) return lib;
    lib.found = true;
    lib.path = path;
    // libnccl.so.2.21.5 carries the version in its name; a bare libnccl.so.2 does not.
    auto pos = path.rfind("libnccl.so.");
    std::string tail = path.substr(pos + 11);
    auto parts = splitList(tail, ".");
    if (parts.size() == 3) {
      lib.version = tail;
      lib.versionCode = static_cast<int>(parseInt(parts[0]).value_or(0) * 10000 + parseInt(parts[1]).value_or(0) * 100 +
                                         parseInt(parts[2]).value_or(0));
    }
    return lib;
  }
  lib.lookedFor = "dlopen(\"libnccl.so.2\") through the dynamic loader (LD_LIBRARY_PATH, ld.so.cache)";
  void* h = dlopen("libnccl.so.2", RTLD_LAZY | RTLD_LOCAL);
  if (!h) {
    const char* err = dlerror();
    lib.lookedFor += fmt::format(": {}", err ? err : "not found");
    return lib;
  }
  using GetVersion = int (*)(int*);
  auto fn = reinterpret_cast<GetVersion>(dlsym(h, "ncclGetVersion"));
  int code = 0;
  if (fn && fn(&code) == 0) {
    lib.found = true;
    lib.versionCode = code;
    lib.version = ncclVersionString(code);
  }
  link_map* map = nullptr;
  if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) lib.path = map->l_name;
  if (!fn) lib.lookedFor += ": the library has no ncclGetVersion";
  dlclose(h);
  return lib;
}

NetPluginLookup findNetPlugin(const SystemView& sys, const std::optional<std::string>& value) {
  NetPluginLookup p;
  if (value && *value == "none") {
    p.disabled = true;
    return p;
  }
  if (!value || value->empty()) {
    p.candidates = {"libnccl-net.so"};
  } else {
    p.candidates = {*value, "libnccl-net-" + *value + ".so"};
  }
  for (const auto& c : p.candidates) {
    if (!sys.isLive()) {
      std::string path = c.find('/') != std::string::npos ? (sys.exists(c) ? c : "") : findFile(sys, c, false);
      if (!path.empty()) {
        p.loaded = path;
        return p;
      }
      continue;
    }
    void* h = dlopen(c.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (h) {
      link_map* map = nullptr;
      p.loaded = (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) ? map->l_name : c;
      // NCCL looks for the newest ncclCollNetPlugin_vN it knows; any version means the plugin offers CollNet.
      for (int v = 12; v >= 2 && p.collNet.empty(); --v) {
        const std::string sym = "ncclCollNetPlugin_v" + std::to_string(v);
        if (dlsym(h, sym.c_str())) p.collNet = sym;
      }
      dlclose(h);
      return p;
    }
    const char* err = dlerror();
    p.error = err ? err : "";
  }
  return p;
}

}  // namespace pf::probes

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Everything a probe knows about a node comes through a SystemView: files under sysfs, procfs, /dev and /etc,
// and the environment. It is rooted at "/" on a live node and at a captured tree in tests (`--sysfs-root DIR`,
// `--env-file FILE`), so a probe is the same code on a real host and on a fixture. Probes never open paths
// or call getenv() themselves.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pf/environment.hpp"

namespace pf::probes {

struct GpuRuntime;

class SystemView {
 public:
  /// A view of the live node: root "/", the process's environment.
  static SystemView live();
  /// A captured tree. @param root directory that stands for "/"; @param env the environment to use
  SystemView(std::filesystem::path root, Environment env, bool live = false);

  /// The host path of an absolute path inside the view ("/sys/class/net" -> ROOT/sys/class/net).
  std::filesystem::path path(std::string_view abs) const;
  /// A file's contents with trailing whitespace removed, bytes outside valid UTF-8 read as '?' (values go into
  /// documents); nullopt when it is missing or unreadable.
  std::optional<std::string> read(std::string_view abs) const;
  /// The entries of a directory (names only, sorted, those that are valid UTF-8); empty when it is missing.
  std::vector<std::string> list(std::string_view absDir) const;
  bool exists(std::string_view abs) const;
  /// The target of a symbolic link as stored (relative targets stay relative); nullopt when not a link.
  std::optional<std::string> readLink(std::string_view abs) const;
  /// The last path component of a link's target ("../../devices/pci0000:00/0000:00:02.0" -> "0000:00:02.0").
  std::optional<std::string> linkName(std::string_view abs) const;

  const Environment& env() const { return env_; }
  /// True on a live node, where probes may also call libraries (libibverbs, libfabric, CUDA, NVML, NCCL)
  /// and compare what they say with the files. False on a captured tree: files only.
  bool isLive() const { return live_; }
  const std::filesystem::path& root() const { return root_; }

  /// What the CUDA runtime and NVML say about the GPUs (gpu_runtime.hpp): asked on a live node, none on a
  /// captured tree unless one was given with withGpuRuntime (a stubbed runtime: 8 GPUs in sysfs, 1 visible).
  const GpuRuntime* gpuRuntime() const;
  SystemView& withGpuRuntime(std::shared_ptr<const GpuRuntime> runtime) {
    gpuRuntime_ = std::move(runtime);
    return *this;
  }

 private:
  std::filesystem::path root_;
  Environment env_;
  bool live_ = false;
  std::shared_ptr<const GpuRuntime> gpuRuntime_;
};

}  // namespace pf::probes

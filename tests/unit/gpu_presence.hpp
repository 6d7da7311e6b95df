// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// For the tests labelled `gpu`: whether this node has an NVIDIA GPU at all, decided without CUDA. Only a node
// without one may skip; on a node with one, a CUDA failure (a driver older than this build's CUDA, a missing
// library, an init error) must fail the test. Reading any cudaGetDeviceCount() failure as "no GPU" let every GPU
// test pass by skipping on such a node (issue 15).
#pragma once

#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <system_error>

namespace pf::testing {

/// The reason to skip (no /dev/nvidia<N>: the driver creates one per GPU it drives), or nullopt when this node
/// has a GPU that CUDA must be able to use.
inline std::optional<std::string> noGpuOnThisNode() {
  static const std::regex gpuNode("nvidia[0-9]+");
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/dev", ec))
    if (std::regex_match(e.path().filename().string(), gpuNode)) return std::nullopt;
  return std::string("no NVIDIA GPU on this node (no /dev/nvidia<N> device node)");
}

}  // namespace pf::testing

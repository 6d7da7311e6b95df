// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// For reader fuzz targets whose entry point takes a file (Environment::fromFile, a SystemView's tree): writes
// the input bytes to a file in a per-process scratch directory, which each input overwrites.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace pf::fuzz {

/// A scratch directory, made once per process and removed when it exits normally (a crash leaves it).
inline const std::filesystem::path& scratchDir() {
  static const std::filesystem::path dir = [] {
    std::string tmpl = (std::filesystem::temp_directory_path() / "pf_fuzz_XXXXXX").string();
    if (!mkdtemp(tmpl.data())) std::abort();
    return std::filesystem::path(tmpl);
  }();
  static const bool cleanup = [] {
    return std::atexit([] {
             std::error_code ec;
             std::filesystem::remove_all(dir, ec);
           }) == 0;
  }();
  (void)cleanup;
  return dir;
}

/// Writes `data` to `rel` under the scratch directory (creating parent directories); returns its path.
inline std::filesystem::path writeInput(const std::string& rel, const std::uint8_t* data, std::size_t size) {
  std::filesystem::path p = scratchDir() / rel;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) std::abort();
  return p;
}

}  // namespace pf::fuzz

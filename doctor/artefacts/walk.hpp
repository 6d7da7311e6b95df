// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The files of a job's artefact folder: the command-line arguments with each directory walked (sub-directories
// too, as an sbatch output folder or a copied pod-log tree has them), bounded in depth and in count, each directory
// visited once whatever symbolic links point back at it. What is not a regular file is listed as skipped, with why.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pf::doctor {

struct SkippedInput {
  std::string file;
  std::string reason;
};

struct InputFiles {
  std::vector<std::string> files;     ///< in argument order; a directory's files sorted by path
  std::vector<SkippedInput> skipped;  ///< not regular files, loops, what lies past the bounds
};

inline constexpr int kMaxWalkDepth = 8;
inline constexpr std::size_t kMaxWalkFiles = 20000;

/// Expands the arguments ("-" and files kept as given, a missing path kept for openLog to report).
/// @throws UsageError for a directory that cannot be listed or that holds no regular file at any depth.
InputFiles collectInputs(const std::vector<std::string>& args);

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reads the logs the doctor analyses: whole files (sized up front and read with read(2), which matters at
// multi-GB sizes where an istreambuf_iterator copy costs seconds) or stdin.
#pragma once

#include <string>

namespace pf::doctor {

/// The whole content of `path` ("-" = stdin).
/// @throws UsageError naming the path when it is missing, a directory or unreadable.
std::string readLog(const std::string& path);

}  // namespace pf::doctor

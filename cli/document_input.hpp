// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reading a document a person names on the command line (`report`, `compare`): a Preflight result document,
// or nccl-tests/rccl-tests output imported on the way (pf/import.hpp), with the importer's skipped lines
// printed on stderr as FILE:LINE, the form editors jump to.
#pragma once

#include <string>

#include "pf/result.hpp"

namespace pf::cli {

/// @throws UsageError naming the file when it is neither a document nor a readable nccl-tests output.
RunReport readInputDocument(const std::string& path);

}  // namespace pf::cli

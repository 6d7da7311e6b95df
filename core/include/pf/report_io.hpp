// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reading and writing result documents. Writes are atomic (a temporary file in the same directory, then
// rename), so a crash or a full disk never leaves a half-written document where a good one is expected.
#pragma once

#include <string>

#include "pf/result.hpp"

namespace pf {

/// Writes `content` to `path` atomically; "-" writes to stdout. Missing parent directories are created.
/// @throws UsageError when the directory cannot be created or is not writable (the message names the path);
/// SystemError when the disk is full or fails. The previous file at `path` is left whole either way.
void writeFileAtomic(const std::string& path, const std::string& content);

/// Fails early, before a long run, when `path` could not be written later ("-" is always fine). Creates the
/// missing parent directories (`--output cmp/report.md` makes `cmp/`).
/// @throws UsageError naming the path when its directory cannot be created, is not writable (a read-only mount), or
/// full: it writes, and removes, a one-byte file there.
void checkWritable(const std::string& path);

/// Serialises `report` (pretty-printed) and writes it atomically to `path` ("-" = stdout).
void writeReport(const RunReport& report, const std::string& path);

/// Reads a result document from `path` ("-" = stdin).
/// @throws UsageError naming the path for a missing file, invalid JSON or a document that does not fit.
RunReport readReport(const std::string& path);

/// A parsed result document as readReport turns it into a RunReport; `name` prefixes its error messages.
/// @throws UsageError naming `name` when the document does not fit the model.
RunReport reportFromDocument(const Json& document, const std::string& name);

/// Reads a whole text file ("-" = stdin). @throws UsageError naming the path when it cannot be read.
std::string readTextFile(const std::string& path);

}  // namespace pf

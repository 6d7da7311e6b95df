// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The limits every whole-file reader applies to what a user hands it (result documents, nccl-tests outputs,
// thresholds, environment files). A file is read whole into memory and a JSON document is copied recursively,
// so a reader refuses, with a message naming the input, what would exhaust memory, block, or overflow the stack:
// a FIFO or a device (opened without blocking, refused by its type), a file over kMaxInputBytes, and JSON nested
// deeper than kMaxJsonDepth. See docs/reliability.md.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "pf/result.hpp"

namespace pf {

/// 256 MiB: the largest Preflight document or nccl-tests output seen is a few MiB.
inline constexpr std::size_t kMaxInputBytes = std::size_t{256} << 20;

/// Preflight documents nest about ten levels deep; copying a parsed document recurses once per level.
inline constexpr int kMaxJsonDepth = 256;

/// Parses `text` as JSON after checking its nesting depth. `name` prefixes every error; `hint` (what to pass
/// instead) ends the message of a parse error.
/// @throws UsageError naming `name` and the depth, or the parse error (cut to a readable length).
Json parseJsonText(std::string_view text, const std::string& name, const std::string& hint);

/// `value` as it may appear in a message: at most `max` bytes, cut with "..." and the full length.
std::string clipForMessage(std::string_view value, std::size_t max = 80);

}  // namespace pf

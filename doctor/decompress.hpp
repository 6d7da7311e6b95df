// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Streaming decompression behind the ByteSource interface: gzip (zlib, also concatenated members) and zstd.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "log_source.hpp"

namespace pf::doctor {

enum class Compression { kNone, kGzip, kZstd };

/// Recognises a stream by its first bytes (at least 4 when available).
Compression detectCompression(std::string_view head);

/// `raw` decompressed as `c` (returned unchanged for kNone); errors name `name`.
std::unique_ptr<ByteSource> decompressing(std::unique_ptr<ByteSource> raw, Compression c, const std::string& name);

}  // namespace pf::doctor

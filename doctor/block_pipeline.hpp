// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reads one input on several threads. Worker threads take turns reading the next block of whole lines (read(2), and
// gunzip or zstd where the input is compressed) and each runs, side by side with the others, the half of the scan
// that needs only its block's text (LogScanner::prepare: the multi-literal pass, each line's prefix, number and
// InfoExtractor::classify); the calling thread does the rest (LogScanner::consume and the artefact readers), block
// by block in input order, exactly as if one thread did everything, and prepares a block itself whenever the next
// one is not ready. The serial half is the smaller one, so the CPUs given are kept busy (docs/performance.md,
// "doctor on real-shaped logs: workers").
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>

#include "log_scanner.hpp"
#include "log_source.hpp"

namespace pf::doctor {

/// Calls `consume(block, prep)` for each block of `src` in order, where `prep` is `scan.prepare(block)`, made by
/// worker threads a few blocks ahead (or by the calling thread while it waits for one). `consume` runs on the calling
/// thread; the views it gets are valid until it returns. An exception from either side (a read error, a corrupt gzip
/// stream) stops every thread and is rethrown here, after the blocks before it were consumed. Where this process may
/// run on one CPU only (taskset, a one-core cgroup), it reads and prepares on the calling thread instead: another
/// thread there would only take turns with it. So it does where no thread can be started.
/// `workers`: the threads started besides the calling one (0: none); by default one per CPU given besides the
/// calling thread, up to three (tests ask for more than the machine has, to run every thread's path).
void readPrepared(ByteSource& src, std::size_t blockSize, const LogScanner& scan,
                  const std::function<void(std::string_view, const PreparedBlock&)>& consume,
                  std::optional<std::size_t> workers = std::nullopt);

/// Whether readPrepared() uses worker threads in this process (more than one CPU in its affinity mask).
bool readsAhead();

}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Reads one input on two threads. The reading thread reads the next blocks of whole lines (read(2), and gunzip or
// zstd where the input is compressed) and runs the half of the scan that needs only the block's text
// (LogScanner::prepare: the multi-literal pass, each line's prefix and number); the calling thread does the rest
// (LogScanner::consume and the artefact readers), block by block in input order, exactly as if one thread did
// both. A large log is then read in about the time of its per-line work alone (docs/performance.md, "doctor on
// real-shaped logs: reading ahead on a second core").
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

#include "log_scanner.hpp"
#include "log_source.hpp"

namespace pf::doctor {

/// Calls `consume(block, prep)` for each block of `src` in order, where `prep` is `scan.prepare(block)`, made on a
/// second thread up to two blocks ahead. `consume` runs on the calling thread; the views it gets are valid
/// until it returns. An exception from either side (a read error, a corrupt gzip stream) stops both threads and is
/// rethrown here. Where this process may run on one CPU only (taskset, a one-core cgroup), it reads and prepares
/// on the calling thread instead: a second thread there would only take turns with the first. So it does where no
/// thread can be started.
void readPrepared(ByteSource& src, std::size_t blockSize, const LogScanner& scan,
                  const std::function<void(std::string_view, const PreparedBlock&)>& consume);

/// Whether readPrepared() uses a second thread in this process (more than one CPU in its affinity mask).
bool readsAhead();

}  // namespace pf::doctor

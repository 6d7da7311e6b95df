// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Host memory for the buffers a benchmark hands to MPI, shared by the MPI backend and the bare reference program
// in bench/, so that the two place their buffers alike.
//
// Why huge pages are an option: where the kernel's transparent huge page mode is `madvise` (Debian's and Ubuntu's
// default), a buffer lives in 4 KiB pages, and Open MPI's shared-memory copies of large messages then cost per
// page and depend on where the kernel happened to put each one. On the 2-core test VM a 2-rank 16 MiB all-reduce
// took 5,729 us with 4 KiB pages and 3,524 us with 2 MiB pages (the same program, 8 alternated runs), and the
// 16 MiB times of two programs that differ only around the loop differed by 11% (docs/performance.md,
// 2026-11-28). With `hugePages` a buffer of at least one huge page is 2 MiB-aligned, rounded up to whole huge
// pages and advised for them (madvise(MADV_HUGEPAGE)); the kernel backs it with 2 MiB pages when it has free ones
// (THP mode `madvise` or `always`; with `never` nothing changes).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>

namespace pf {

inline constexpr std::size_t kBufferPage = 4096;
inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

/// `bytes` (at least one page) of page-aligned host memory, on transparent huge pages as above when `hugePages`
/// and `bytes` >= kHugePage. Null when out of memory; release with std::free.
inline void* allocateHostBuffer(std::size_t bytes, bool hugePages) {
  if (hugePages && bytes >= kHugePage) {
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    // Advice, not a promise: a kernel without THP (EINVAL) leaves the buffer on 4 KiB pages, as without the option.
    if (p) (void)::madvise(p, rounded, MADV_HUGEPAGE);
    return p;
  }
  const std::size_t rounded = bytes < kBufferPage ? kBufferPage : (bytes + kBufferPage - 1) / kBufferPage * kBufferPage;
  return std::aligned_alloc(kBufferPage, rounded);
}

}  // namespace pf

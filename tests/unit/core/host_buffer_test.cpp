// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// Host buffers for benchmarks (pf/host_buffer.hpp): page-aligned whole pages; with huge pages, buffers of 2 MiB
// and more are 2 MiB-aligned and their mapping carries the kernel's huge-page advice.
#include "pf/host_buffer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace pf {
namespace {

std::uintptr_t addressOf(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// The VmFlags of the mapping that holds `p` (/proc/self/smaps), "" when not found.
std::string vmFlagsOf(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(':') > line.find(' ')) {
      inside = addressOf(p) >= lo && addressOf(p) < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

TEST(HostBuffer, SmallBuffersArePageAlignedWithOrWithoutHugePages) {
  for (bool huge : {false, true})
    for (std::size_t bytes : {std::size_t{1}, std::size_t{4096}, std::size_t{5000}, kHugePage - 1}) {
      void* p = allocateHostBuffer(bytes, huge);
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(addressOf(p) % kBufferPage, 0u) << bytes;
      std::memset(p, 1, bytes);  // the whole size is there
      std::free(p);
    }
}

TEST(HostBuffer, LargeBuffersOnHugePagesAreAlignedAndAdvised) {
  const std::size_t bytes = 3 * kHugePage + 100;  // rounded up to four huge pages
  void* p = allocateHostBuffer(bytes, true);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(addressOf(p) % kHugePage, 0u);
  std::memset(p, 1, 4 * kHugePage);
  // The advice is on the mapping ("hg" in VmFlags) wherever the kernel has transparent huge pages at all; whether
  // it then finds free 2 MiB pages is up to it.
  if (std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
    const std::string flags = vmFlagsOf(p);
    ASSERT_FALSE(flags.empty()) << "no mapping holds the buffer in /proc/self/smaps";
    EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
  }
  std::free(p);
  void* q = allocateHostBuffer(bytes, false);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(addressOf(q) % kBufferPage, 0u);
  std::free(q);
}

}  // namespace
}  // namespace pf

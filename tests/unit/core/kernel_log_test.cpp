// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// pf/kernel_log.hpp: the driver's Xid and SXid lines as the kernel log holds them, and the reader's answer when
// the log cannot be opened.
#include "pf/kernel_log.hpp"

#include <gtest/gtest.h>

namespace pf {
namespace {

TEST(KernelLog, XidLinesGiveTheCodeAndTheDeviceInLowerCase) {
  auto x = parseXidLine("NVRM: Xid (PCI:0000:3B:00): 79, pid='<unknown>', GPU has fallen off the bus.");
  ASSERT_TRUE(x);
  EXPECT_FALSE(x->sxid);
  EXPECT_EQ(x->code, 79);
  EXPECT_EQ(x->pci, "0000:3b:00");
  EXPECT_EQ(xidName(*x), "Xid 79");
  auto old = parseXidLine("kernel: NVRM: Xid (0000:03:00): 14, Channel 00000001");  // older drivers: no "PCI:"
  ASSERT_TRUE(old);
  EXPECT_EQ(old->pci, "0000:03:00");
  EXPECT_EQ(old->code, 14);
  auto s = parseXidLine("nvidia-nvswitch2: SXid (PCI:0000:c5:00.0): 12028, Non-fatal, Link 32");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->sxid);
  EXPECT_EQ(s->code, 12028);
  EXPECT_EQ(s->pci, "0000:c5:00.0");
  EXPECT_EQ(xidName(*s), "SXid 12028");
}

TEST(KernelLog, OtherLinesAreNotXids) {
  EXPECT_FALSE(parseXidLine("python: Xid (PCI:0000:3b:00): 79, printed by a program"));  // not the driver's
  EXPECT_FALSE(parseXidLine("NVRM: Xid (PCI:0000:3b:00): none"));
  EXPECT_FALSE(parseXidLine("NVRM: loading NVIDIA UNIX x86_64 Kernel Module"));
}

TEST(KernelLog, AMissingLogSaysWhy) {
  int calls = 0;
  KernelLogRead r = readKernelLog("/nonexistent/dev/kmsg", [&](std::string_view) { ++calls; });
  EXPECT_FALSE(r.opened);
  EXPECT_EQ(r.error, "No such file or directory");
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace pf

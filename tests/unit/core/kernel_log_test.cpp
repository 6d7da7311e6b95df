// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// pf/kernel_log.hpp: the driver's Xid and SXid lines as the kernel log holds them, the reader's answer when
// the log cannot be opened, each line's time, and `--xid-since` TEXT.
#include "pf/kernel_log.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "pf/error.hpp"

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

TEST(KernelLog, EachLineSaysWhenAsFarAsItsFormatTells) {
  // /dev/kmsg: microseconds since boot in the third field (kernel Documentation/ABI/testing/dev-kmsg).
  EXPECT_EQ(kernelLogTime("4,1002,7000123,-;NVRM: Xid (PCI:0000:3b:00): 79").bootUs, 7000123);
  EXPECT_EQ(kernelLogTime("6,1,0,c;Linux version 6.1.0").bootUs, 0);
  // dmesg's default: seconds since boot.
  EXPECT_EQ(kernelLogTime("[ 5012.250000] NVRM: Xid (PCI:0000:3b:00): 79").bootUs, 5012250000);
  // dmesg --time-format iso: a zoned time, whatever the zone.
  EXPECT_EQ(kernelLogTime("2026-12-02T11:00:00,500000+01:00 NVRM: Xid").epochUs, 1796205600500000);
  EXPECT_EQ(kernelLogTime("2026-12-02T10:00:00Z x").epochUs, 1796205600000000);
  // dmesg -T's local time names no zone, and a message without a stamp has none: neither can be placed.
  const KernelLogTime local = kernelLogTime("[Wed Dec  2 10:00:00 2026] NVRM: Xid (PCI:0000:3b:00): 79");
  EXPECT_FALSE(local.bootUs || local.epochUs);
  const KernelLogTime bare = kernelLogTime("NVRM: Xid (PCI:0000:3b:00): 79, pid=1, a; b");
  EXPECT_FALSE(bare.bootUs || bare.epochUs);
  // A time with a comma and a ';' in its message is no /dev/kmsg record.
  EXPECT_FALSE(kernelLogTime("2026-12-02T10:00:00,1+00:00 a;b").bootUs);
}

TEST(KernelLog, TheTimedReaderHandsEveryMessageItsTime) {
  char path[] = "/tmp/pf_kmsg_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string text = "6,1,1000000,-;first\n SUBSYSTEM=pci\n4,2,2500000,-;second\n";
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(fd);
  std::vector<std::pair<std::string, int64_t>> got;
  KernelLogRead r = readKernelLogTimed(path, [&](std::string_view line, const KernelLogTime& t) {
    got.emplace_back(std::string(line), t.bootUs.value_or(-1));
  });
  unlink(path);
  EXPECT_EQ(r.records, 2u);
  EXPECT_EQ(got, (std::vector<std::pair<std::string, int64_t>>{{"first", 1000000}, {"second", 2500000}}));
}

TEST(KernelLogSince, TakesAZonedTimeEpochSecondsADurationOrBoot) {
  EXPECT_EQ(parseKernelLogSince("2026-12-02T10:00:00Z", "--xid-since").epochUs, 1796205600000000);
  EXPECT_EQ(parseKernelLogSince("2026-12-02T11:00:00+01:00", "--xid-since").epochUs, 1796205600000000);
  EXPECT_EQ(parseKernelLogSince("2026-12-02 05:00-0500", "--xid-since").epochUs, 1796205600000000);
  EXPECT_EQ(parseKernelLogSince("@1796205600", "--xid-since").epochUs, 1796205600000000);
  EXPECT_EQ(parseKernelLogSince("90s", "--xid-since").lastUs, 90000000);
  EXPECT_EQ(parseKernelLogSince("30m", "--xid-since").lastUs, int64_t{1800} * 1000000);
  EXPECT_EQ(parseKernelLogSince("2h", "--xid-since").lastUs, int64_t{7200} * 1000000);
  EXPECT_EQ(parseKernelLogSince("1d", "--xid-since").lastUs, int64_t{86400} * 1000000);
  const KernelLogSince boot = parseKernelLogSince("boot", "--xid-since");
  EXPECT_FALSE(boot.epochUs || boot.lastUs);
  EXPECT_EQ(isoUtcSeconds(1796205600500000), "2026-12-02T10:00:00Z");
}

TEST(KernelLogSince, RefusesWhatNamesNoMomentSayingWhatItTakes) {
  auto why = [](const char* text) {
    try {
      parseKernelLogSince(text, "--xid-since");
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(why("30").find("--xid-since '30': a duration needs its unit"), std::string::npos) << why("30");
  EXPECT_NE(why("2026-12-02T10:00:00").find("the time has no zone"), std::string::npos);
  EXPECT_NE(why("2026-13-02T10:00:00Z").find("not a valid date and time"), std::string::npos);
  EXPECT_NE(why("2026-04-31T10:00:00Z").find("not a valid date and time"), std::string::npos);
  EXPECT_NE(why("-5m").find("not a time or a duration"), std::string::npos);
  EXPECT_NE(why("5w").find("unknown unit 'w'"), std::string::npos);
  EXPECT_NE(why("yesterday").find("date -Iseconds"), std::string::npos);
  EXPECT_NE(why("2026-12-02T10:00:00Z tomorrow").find("text after the time"), std::string::npos);
  EXPECT_NE(why("99999d").find("longer than ten years"), std::string::npos);
}

}  // namespace
}  // namespace pf

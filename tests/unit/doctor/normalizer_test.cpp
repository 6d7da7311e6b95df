// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include <gtest/gtest.h>

#include "line_normalizer.hpp"

namespace pf::doctor {
namespace {

TEST(DoctorNormalizer, PlainNcclLine) {
  NormLine l = normalizeLine("node1:123:456 [3] NCCL INFO Using network IB");
  EXPECT_EQ(l.host, "node1");
  EXPECT_EQ(l.pid, 123);
  EXPECT_EQ(l.device, 3);
  EXPECT_EQ(l.level, "INFO");
  EXPECT_EQ(l.text, "Using network IB");
}

TEST(DoctorNormalizer, PrefixesInAnyNesting) {
  const char* lines[] = {
      "[2026-04-22 21:34:20] node1:123:456 [0] misc/shmutils.cc:88 NCCL WARN Error: failed",
      "2024-05-01T10:00:00.123456789Z stdout F [default3]:node1:123:456 [0] NCCL WARN Error: failed",
      "\x1b[31m[rank3]:node1:123:456 [0] NCCL WARN Error: failed\x1b[0m",
      "[0m node1:123:456 [0] NCCL WARN Error: failed",
      "12: node1:123:456 [0] NCCL WARN Error: failed",
      "[1,12]<stdout>:node1:123:456 [0] NCCL WARN Error: failed",
      "10.0.0.1: node1:123:456 [0] NCCL WARN Error: failed",
      "(pid=99) node1:123:456 [0] NCCL WARN Error: failed",
  };
  for (const char* raw : lines) {
    NormLine l = normalizeLine(raw);
    EXPECT_EQ(l.text, "Error: failed") << raw;
    EXPECT_EQ(l.host, "node1") << raw;
    EXPECT_EQ(l.level, "WARN") << raw;
  }
  EXPECT_EQ(normalizeLine(lines[1]).launcherRank, 3);
  EXPECT_EQ(normalizeLine(lines[4]).launcherRank, 12);
  EXPECT_EQ(normalizeLine(lines[5]).launcherRank, 12);
  EXPECT_EQ(normalizeLine(lines[0]).timestamp, "[2026-04-22 21:34:20] ");
}

TEST(DoctorNormalizer, KeepsPythonMessagesIntact) {
  NormLine l = normalizeLine("torch.distributed.DistBackendError: NCCL error in: x.cpp:1, unhandled cuda error");
  EXPECT_EQ(l.text, "torch.distributed.DistBackendError: NCCL error in: x.cpp:1, unhandled cuda error");
  EXPECT_EQ(l.host, "");
  NormLine t = normalizeLine("[trainer0|0]:ncclInternalError: Internal check failed.");
  EXPECT_EQ(t.text, "ncclInternalError: Internal check failed.");
}

TEST(DoctorNormalizer, LineBounds) {
  std::string_view s = "ab\r\ncd\nef";
  EXPECT_EQ(lineBounds(s, 0), (std::pair<std::size_t, std::size_t>{0, 2}));
  EXPECT_EQ(lineBounds(s, 5), (std::pair<std::size_t, std::size_t>{4, 6}));
  EXPECT_EQ(lineBounds(s, 8), (std::pair<std::size_t, std::size_t>{7, 9}));
}

}  // namespace
}  // namespace pf::doctor

namespace pf::doctor {
namespace {

TEST(DoctorNormalizer, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(validUtf8("ok \xC3\xA9"), "ok \xC3\xA9");  // é stays
  EXPECT_EQ(validUtf8("a\xFF"
                      "b"),
            "a\xEF\xBF\xBD"
            "b");                                                // stray byte
  EXPECT_EQ(validUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  EXPECT_EQ(validUtf8("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // truncated sequence
  EXPECT_EQ(utf8Prefix("ab\xC3\xA9", 3), "ab");                  // never cuts inside é
  EXPECT_EQ(normalizeLine("n:1:2 [0] NCCL WARN bad \xFF byte").text, "bad \xEF\xBF\xBD byte");
}

}  // namespace
}  // namespace pf::doctor

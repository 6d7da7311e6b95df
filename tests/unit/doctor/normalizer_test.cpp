// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include <gtest/gtest.h>

#include <random>
#include <string>

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

// Lines whose NCCL prefix starts with a letter take a short way (line_normalizer.cpp, ncclLineStart); it must
// give what peeling the prefixes one by one gives, and leave every other line to that.
TEST(DoctorNormalizer, ShortWayForNcclLinesGivesWhatPeelingGives) {
  struct Case {
    const char* raw;
    const char* host;
    const char* level;
    const char* text;
    int launcherRank;
  };
  const Case cases[] = {
      {"node1:123:456 [3] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC", "node1", "INFO",
       "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC", -1},
      {"Node-7:1:2 [0] NCCL WARN Error: failed  ", "Node-7", "WARN", "Error: failed", -1},
      {"node1:123:456 [3] NCCL TRACE x", "node1", "TRACE", "x", -1},  // not INFO or WARN: the long way
      {"node1:123:456 [3] NCCL ABORT x", "node1", "ABORT", "x", -1},
      {"node1:123:456 [3] misc/shmutils.cc:88 NCCL WARN x", "node1", "WARN", "x", -1},
      {"node1:123:456 [3] NCCL INFO", "node1", "INFO", "", -1},
      {"2024-05-01T10:00:00.1Z stdout F [default3]:node7:11:12 [3] NCCL INFO Init COMPLETE", "node7", "INFO",
       "Init COMPLETE", 3},
      {"node1: node2:1:2 [0] NCCL WARN x", "node2", "WARN", "x", -1},  // pdsh's host first, then NCCL's
      {"10.0.0.1:5:6 [0] NCCL INFO x", "10.0.0.1", "INFO", "x", -1},   // a host that starts with a digit
      {"node1:123 [3] NCCL INFO x", "", "INFO", "x", -1},              // no tid: no NCCL prefix, only the level
  };
  for (const Case& c : cases) {
    NormView v;
    ASSERT_TRUE(normalizeView(c.raw, v)) << c.raw;
    EXPECT_EQ(v.host, c.host) << c.raw;
    EXPECT_EQ(v.level, c.level) << c.raw;
    EXPECT_EQ(v.text, c.text) << c.raw;
    EXPECT_EQ(v.launcherRank, c.launcherRank) << c.raw;
    NormView known;
    ASSERT_TRUE(normalizeView(c.raw, known, true)) << c.raw;
    EXPECT_EQ(known.text, v.text) << c.raw;
  }
  NormView v;
  EXPECT_FALSE(normalizeView("node1:1:2 [0] NCCL WARN caf\xc3\xa9", v));  // not plain ASCII: normalizeLine's
  EXPECT_TRUE(plainAscii("node1:1:2 [0] NCCL WARN cafe"));
  EXPECT_FALSE(plainAscii("\x1b[31mred"));
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

// lineBounds searches 16 bytes at a time for up to 8 blocks each way, then calls the library: lines of 0 to
// 400 bytes, every offset, against a byte-by-byte search.
TEST(DoctorNormalizer, LineBoundsAgreeWithAByteSearch) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::string text(rng() % 600, 'x');
    const unsigned newlines = static_cast<unsigned>(round % 10);  // per cent: from none to dense
    for (char& c : text) {
      const unsigned r = rng() % 100;
      c = r < newlines ? '\n' : r < newlines + 2 ? '\r' : 'a';
    }
    for (std::size_t off = 0; off < text.size(); ++off) {
      std::size_t b = off, e = off;
      while (b > 0 && text[b - 1] != '\n') --b;
      while (e < text.size() && text[e] != '\n') ++e;
      if (e > b && text[e - 1] == '\r') --e;
      ASSERT_EQ(lineBounds(text, off), (std::pair<std::size_t, std::size_t>{b, e})) << "offset " << off;
    }
  }
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

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "log_time.hpp"

#include <gtest/gtest.h>

#include "line_normalizer.hpp"

namespace pf::doctor {
namespace {

TEST(DoctorLogTime, ReadsPyTorchC10Stamps) {
  // c10 prints the month without a leading zero and a two-digit day: E304 is March 4th, E1205 December 5th.
  auto t = parseLogTime("E304 10:42:37.883906529");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->year, -1);
  EXPECT_EQ(t->month, 3);
  EXPECT_EQ(t->day, 4);
  EXPECT_EQ(t->nanos, ((10 * 60LL + 42) * 60 + 37) * 1000000000LL + 883906529);
  auto d = parseLogTime("E1205 04:35:53.584483882");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->month, 12);
  EXPECT_EQ(d->day, 5);
}

TEST(DoctorLogTime, OrdersAcrossFormatsNotByText) {
  // As text "E1205" sorts before "E304"; as times December comes after March.
  EXPECT_EQ(compareStamps("E304 10:42:37.883906529", "E1205 04:35:53.584483882"), -1);
  // Python logging's comma fraction against c10's stamp, the year known on one side only.
  EXPECT_EQ(compareStamps("2026-03-04 10:31:02,417", "E304 10:42:37.901245117"), -1);
  EXPECT_EQ(compareStamps("E304 10:42:37.883906529", "E304 10:42:37.901245117"), -1);
  EXPECT_EQ(compareStamps("[2026-03-04 10:42:38] ", "2026-03-04T10:42:37.999Z"), 1);
  EXPECT_EQ(compareStamps("2026-03-04T10:42:37.500Z", "2026-03-04 10:42:37,5"), 0);
  EXPECT_FALSE(compareStamps("", "E304 10:42:37.883906529"));
  EXPECT_FALSE(parseLogTime("E304 not a time"));
  EXPECT_FALSE(parseLogTime("E1305 10:00:00"));  // no 13th month
}

TEST(DoctorLogTime, NormaliserPeelsTheC10PrefixAndKeepsItsStamp) {
  const NormLine l = normalizeLine(
      "[rank3]:[E304 10:42:37.883906529 ProcessGroupNCCL.cpp:632] [PG ID 0 PG GUID 0(default_pg) Rank 3] Watchdog "
      "caught collective operation timeout");
  EXPECT_EQ(l.timestamp, "E304 10:42:37.883906529");
  EXPECT_EQ(l.launcherRank, 3);
  EXPECT_EQ(l.text, "[PG ID 0 PG GUID 0(default_pg) Rank 3] Watchdog caught collective operation timeout");
  // With a thread id before the source location.
  EXPECT_EQ(normalizeLine("[W304 10:42:37.883906 48213 socket.cpp:464] [c10d] connect failed").timestamp,
            "W304 10:42:37.883906");
  // PyTorch before 2.2: a severity and the source location, no time.
  const NormLine old = normalizeLine("[E ProcessGroupNCCL.cpp:474] [Rank 0] Watchdog caught collective operation");
  EXPECT_EQ(old.timestamp, "");
  EXPECT_EQ(old.text, "[Rank 0] Watchdog caught collective operation");
  // A bracket that is not c10's stays.
  EXPECT_EQ(normalizeLine("[E] something").text, "[E] something");
}

}  // namespace
}  // namespace pf::doctor

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pair protocol (pair_protocol.hpp) on two in-process ranks over the fake transport (fake_pair_engine.hpp):
// what it measures in each direction, which burst counts, how the time cap ends a direction, and the latency
// figure. Virtual time: the numbers are exact, and a slow link costs no real time.
#include "pair_protocol.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "fake_pair_engine.hpp"

namespace pf::check {
namespace {

using testing::FakeLink;
using testing::FakePairEngine;
using testing::FakeWire;

struct PairOutcome {
  PairSample initiator, responder;
  double initiatorSeconds = 0, responderSeconds = 0;  ///< virtual time each side spent
};

// Rank 0 initiates, rank 1 responds.
PairOutcome measureOnThreads(FakeWire& wire, const PairOptions& o, bool ack = false) {
  auto boots = makeThreadBootstraps(2);
  PairOutcome out;
  auto side = [&](int r, PairSample& sample, double& seconds) {
    FakePairEngine engine(wire, ack);
    engine.init(*boots[static_cast<size_t>(r)], LauncherEnv{});
    sample = measurePair(engine, 1 - r, r == 0, o);
    seconds = engine.clockSeconds();
  };
  std::thread responder(side, 1, std::ref(out.responder), std::ref(out.responderSeconds));
  side(0, out.initiator, out.initiatorSeconds);
  responder.join();
  return out;
}

PairOptions smallOptions() {
  PairOptions o;
  o.bwBytes = 1 << 20;
  return o;
}

TEST(PairProtocol, MeasuresEachDirectionOnItsSender) {
  // 0 -> 1 at 2 GB/s, 1 -> 0 at 0.5 GB/s.
  FakeWire wire([](const FakeLink& l) { return l.from == 0 ? 2.0 : 0.5; });
  const PairOptions o = smallOptions();
  PairOutcome p = measureOnThreads(wire, o);
  EXPECT_NEAR(p.initiator.bwOutGbps, 2.0, 1e-9);
  EXPECT_NEAR(p.initiator.bwInGbps, 0.5, 1e-9);
  EXPECT_EQ(p.initiator.bwMessagesOut, o.bwIters * o.bwTrials);
  EXPECT_EQ(p.initiator.bwMessagesIn, o.bwIters * o.bwTrials);
  // The responder hands its figure over and keeps nothing.
  EXPECT_EQ(p.responder.bwOutGbps, 0);
  EXPECT_EQ(p.responder.bwInGbps, 0);
  EXPECT_EQ(p.responder.latUs, 0);
}

TEST(PairProtocol, TheBestBurstCounts) {
  // The first timed burst of each direction (messages 1-4; message 0 is the untimed warm-up) is slowed, the
  // last one more so: the middle burst is the measurement.
  FakeWire wire([](const FakeLink& l) {
    if (l.nth >= 1 && l.nth <= 4) return 0.5;
    if (l.nth >= 9) return 0.25;
    return 3.0;
  });
  PairOutcome p = measureOnThreads(wire, smallOptions());
  EXPECT_NEAR(p.initiator.bwOutGbps, 3.0, 1e-9);
  EXPECT_NEAR(p.initiator.bwInGbps, 3.0, 1e-9);
}

TEST(PairProtocol, TheTimeCapEndsADirectionAfterTheBurstThatCrossesIt) {
  // 1 MiB at 0.01 GB/s: about 0.105 s a message, 0.42 s a burst of 4.
  FakeWire wire([](const FakeLink&) { return 0.01; });
  PairOptions o = smallOptions();
  o.maxSecondsPerDirection = 0.5;  // a second burst starts at 0.42 s, no third at 0.84 s
  PairOutcome p = measureOnThreads(wire, o);
  EXPECT_EQ(p.initiator.bwMessagesOut, 2 * o.bwIters);
  EXPECT_EQ(p.initiator.bwMessagesIn, 2 * o.bwIters);
  EXPECT_NEAR(p.initiator.bwOutGbps, 0.01, 1e-9);
  o.maxSecondsPerDirection = 0.1;  // under one burst: the first burst alone
  p = measureOnThreads(wire, o);
  EXPECT_EQ(p.initiator.bwMessagesOut, o.bwIters);
  EXPECT_EQ(p.initiator.bwMessagesIn, o.bwIters);
  // Both directions and both warm-up messages: 2 x (4 + 1) messages of 0.105 s; latency is negligible here.
  const double perMessage = static_cast<double>(o.bwBytes) / 0.01e9;
  EXPECT_NEAR(p.initiatorSeconds, 10 * perMessage, 0.01);
}

TEST(PairProtocol, LatencyIsTheMedianHalfRoundTrip) {
  FakeWire wire([](const FakeLink&) { return 1.0; }, 25e-6);
  PairOptions o = smallOptions();
  PairOutcome p = measureOnThreads(wire, o);
  // 25 us each way plus 8 bytes at 1 GB/s.
  EXPECT_NEAR(p.initiator.latUs, 25 + 8 / 1e3, 1e-6);
}

TEST(PairProtocol, AnAcknowledgedBurstEndsWhenTheReceiverHasIt) {
  // A transport whose sends complete before delivery (MPI, NCCL) stops the clock on the receiver's acknowledgement,
  // less the acknowledgement's own trip back: a burst of 4 x 1 MiB at 1 GB/s (4.19 ms), then 1 ms for the last
  // message to arrive; the 1 ms the acknowledgement takes back is measured (control round trips) and taken off.
  FakeWire wire([](const FakeLink&) { return 1.0; }, 1e-3);
  const PairOptions o = smallOptions();
  const double burst = 4.0 * static_cast<double>(o.bwBytes) / 1e9;
  PairOutcome acked = measureOnThreads(wire, o, true);
  EXPECT_NEAR(acked.initiator.bwOutGbps, 4.0 * static_cast<double>(o.bwBytes) / (burst + 1e-3) / 1e9, 1e-9);
  EXPECT_NEAR(acked.initiator.bwInGbps, 4.0 * static_cast<double>(o.bwBytes) / (burst + 1e-3) / 1e9, 1e-9);
  FakeWire wire2([](const FakeLink&) { return 1.0; }, 1e-3);
  PairOutcome plain = measureOnThreads(wire2, o, false);
  EXPECT_NEAR(plain.initiator.bwOutGbps, 1.0, 1e-9);
}

// Issue 49, defect 4: NCCL's control values cost a fixed 50 us each (copies and a kernel) on top of the link, which
// has no latency here. The burst's figure must be the link's 1 GB/s in both directions, for any burst length: before
// the fix it was bytes / (burst + 50 us), 1.2% low at 4 MiB bursts and 4.6% low at 1 MiB ones (--quick's size).
TEST(PairProtocol, AFixedAcknowledgementCostDoesNotLowerTheFigure) {
  for (int iters : {4, 1}) {
    FakeWire wire([](const FakeLink&) { return 1.0; }, 0, 50e-6);
    PairOptions o = smallOptions();
    o.bwIters = iters;
    PairOutcome p = measureOnThreads(wire, o, true);
    EXPECT_NEAR(p.initiator.bwOutGbps, 1.0, 1e-9) << iters << " messages a burst";
    EXPECT_NEAR(p.initiator.bwInGbps, 1.0, 1e-9) << iters << " messages a burst";
    EXPECT_EQ(p.initiator.bwMessagesOut, iters * o.bwTrials);
  }
}

}  // namespace
}  // namespace pf::check

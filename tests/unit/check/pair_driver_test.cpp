// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The driver with in-process ranks (thread bootstraps) and a fake transport with scripted link speeds: which
// ranks meet, in which rounds, and what the phase makes of the rows. No MPI.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

#include "fake_pair_engine.hpp"
#include "pairs_phase.hpp"

namespace pf::check {
namespace {

using testing::FakeLink;
using testing::FakePairEngine;
using testing::FakeWire;
using ::testing::HasSubstr;

struct CallLog {
  std::mutex mu;
  std::vector<std::tuple<int, int, bool>> calls;  // (rank, peer, initiator)
  std::map<std::pair<int, int>, int> measured;    // initiator-side measurements per (rank, peer)
};

// Link speeds from a script: pairs touching a rank in `slow` get 0.02 GB/s, others 2 GB/s, 30 us each way; the
// pair `transient` (initiator rank, peer rank) is slow on its first `slowTimes` measurements only, as a pair is when
// something else briefly runs on its host. The pair protocol runs for real over the in-process fake transport.
FakeWire::Speed scriptedSpeed(CallLog& log, std::set<int> slow, std::pair<int, int> transient, int slowTimes) {
  return [&log, slow = std::move(slow), transient, slowTimes](const FakeLink& l) {
    int nth = 0;
    {
      std::lock_guard<std::mutex> lock(log.mu);
      nth = log.measured[transient];
    }
    const bool onTransient = std::minmax(l.from, l.to) == std::minmax(transient.first, transient.second);
    return slow.count(l.from) || slow.count(l.to) || (onTransient && nth <= slowTimes) ? 0.02 : 2.0;
  };
}

// Records every pair a rank takes part in, as the protocol prepares it.
FakePairEngine::OnPrepare logPairs(CallLog& log) {
  return [&log](int rank, int peer, bool initiator) {
    std::lock_guard<std::mutex> lock(log.mu);
    log.calls.emplace_back(rank, peer, initiator);
    if (initiator) ++log.measured[{rank, peer}];
  };
}

// This build machine's own load must not decide these tests: the CPU load is read from a root without procfs
// (no processes, no load). Contention has its own tests (contention_test.cpp).
PairOptions quietOptions() {
  PairOptions o;
  o.procRoot = "/nonexistent/preflight-test-root";
  return o;
}

// Runs the phase on `hosts.size()` thread ranks; returns rank 0's outcome.
PairsPhase runOnThreads(const std::vector<std::string>& hosts, CallLog& log, const std::set<int>& slow,
                        std::pair<int, int> transient = {-1, -1}, int slowTimes = 1) {
  const int n = static_cast<int>(hosts.size());
  auto boots = makeThreadBootstraps(n);
  FakeWire wire(scriptedSpeed(log, slow, transient, slowTimes), 30e-6);
  std::vector<PairsPhase> out(static_cast<size_t>(n));
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] {
      FakePairEngine engine(wire, false, logPairs(log));
      engine.init(*boots[static_cast<size_t>(r)], LauncherEnv{});
      out[static_cast<size_t>(r)] =
          runPairsPhase(engine, *boots[static_cast<size_t>(r)], hosts, quietOptions(), Thresholds{}, {}, 1);
    });
  for (auto& t : threads) t.join();
  // Every rank ends with the same rows.
  for (int r = 1; r < n; ++r) EXPECT_EQ(out[static_cast<size_t>(r)].result.rows, out[0].result.rows);
  return out[0];
}

TEST(PairDriver, LeadersMeetEveryOtherNodeOnce) {
  CallLog log;
  // Five nodes, two ranks on most: leaders are ranks 0, 2, 4, 6, 8; rank 1, 3, 5, 7 only wait.
  std::vector<std::string> hosts = {"n0", "n0", "n1", "n1", "n2", "n2", "n3", "n3", "n4"};
  PairsPhase p = runOnThreads(hosts, log, {});
  ASSERT_EQ(p.rows.size(), 10u);
  EXPECT_EQ(p.result.metrics["rounds"], 5);  // odd: N rounds with a bye each
  std::set<std::pair<std::string, std::string>> pairs;
  for (const PairRow& r : p.rows) {
    EXPECT_EQ(r.rank_a % 2, 0);
    EXPECT_EQ(r.rank_b % 2, 0);
    EXPECT_TRUE(pairs.emplace(r.host_a, r.host_b).second);
    EXPECT_EQ(r.status, Status::kPass);
  }
  // Each call has its mirror: the peer called with this rank and the opposite role.
  std::multiset<std::tuple<int, int, bool>> calls(log.calls.begin(), log.calls.end());
  for (auto [rank, peer, init] : log.calls) {
    EXPECT_EQ(rank % 2, 0) << "a non-leader rank ran a pair";
    EXPECT_EQ(calls.count({peer, rank, !init}), 1u);
  }
  EXPECT_EQ(log.calls.size(), 20u);
  EXPECT_EQ(p.result.status, Status::kPass);
  EXPECT_THAT(p.result.message, HasSubstr("every pair within limits"));
}

TEST(PairDriver, SlowNodeFailsThePhaseAndIsNamed) {
  CallLog log;
  std::vector<std::string> hosts = {"a", "b", "c", "d"};
  PairsPhase p = runOnThreads(hosts, log, {2});
  EXPECT_EQ(p.result.status, Status::kFail);
  ASSERT_EQ(p.analysis.findings.size(), 1u);
  EXPECT_EQ(p.analysis.findings[0].hosts, std::vector<std::string>{"c"});
  EXPECT_THAT(p.result.message, HasSubstr("3 of 6 pairs outside limits"));
  EXPECT_EQ(p.result.rows.size(), 6u);
  int outside = 0;
  for (const Json& j : p.result.rows) outside += pairRowFromJson(j).status != Status::kPass;
  EXPECT_EQ(outside, 3);
  // Its three failing pairs were measured again, one confirmation round each (they share node c), and still fail.
  EXPECT_EQ(p.result.metrics["confirmation_rounds"], 3);
  for (const PairRow& r : p.rows) EXPECT_EQ(r.measurements, r.host_a == "c" || r.host_b == "c" ? 2 : 1);
}

TEST(PairDriver, TransientSlowPairIsMeasuredAgainAndPasses) {
  CallLog log;
  PairsPhase p = runOnThreads({"a", "b", "c", "d"}, log, {}, {0, 3});
  EXPECT_EQ(p.result.status, Status::kPass) << p.result.message;
  EXPECT_EQ(p.result.metrics["confirmation_rounds"], 1);
  EXPECT_EQ((log.measured[{0, 3}]), 2);
  for (const PairRow& r : p.rows) {
    EXPECT_EQ(r.measurements, r.host_a == "a" && r.host_b == "d" ? 2 : 1);
    EXPECT_NEAR(r.bwGbps(), 2.0, 1e-9);  // the better of the two measurements
  }
}

TEST(PairDriver, ALinkSlowTwiceIsMeasuredAThirdTimeAfterALongerBackOff) {
  CallLog log;
  PairsPhase p = runOnThreads({"a", "b", "c", "d"}, log, {}, {0, 3}, 2);
  EXPECT_EQ(p.result.status, Status::kPass) << p.result.message;
  EXPECT_EQ(p.result.metrics["confirmation_rounds"], 2);
  EXPECT_EQ((log.measured[{0, 3}]), 3);
  for (const PairRow& r : p.rows) EXPECT_EQ(r.measurements, r.host_a == "a" && r.host_b == "d" ? 3 : 1);
}

TEST(PairDriver, ALinkSlowEveryTimeFailsAfterThreeMeasurements) {
  CallLog log;
  PairsPhase p = runOnThreads({"a", "b", "c", "d"}, log, {}, {0, 3}, 1000);
  EXPECT_EQ(p.result.status, Status::kFail);
  ASSERT_EQ(p.analysis.findings.size(), 1u);
  EXPECT_EQ(p.analysis.findings[0].check, "pairs.link");
  EXPECT_EQ(p.analysis.findings[0].hosts, (std::vector<std::string>{"a", "d"}));
  EXPECT_EQ((log.measured[{0, 3}]), 3);
}

TEST(PairDriver, OneNodeIsSkippedWithTheReason) {
  CallLog log;
  PairsPhase p = runOnThreads({"solo", "solo"}, log, {});
  EXPECT_EQ(p.result.status, Status::kSkipped);
  EXPECT_THAT(p.result.message, HasSubstr("at least two nodes"));
  EXPECT_TRUE(log.calls.empty());
}

}  // namespace
}  // namespace pf::check

// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A pair engine moves bytes between two ranks on different nodes: the MPI engine (host buffers, point-to-point
// MPI) and, in builds with NCCL, the NCCL engine (device buffers, ncclSend/ncclRecv). Engines self-register
// (PF_REGISTER_PAIR_ENGINE) under "mpi" and "nccl".
//
// Contract: both ranks of a pair call measure() with the same options, at the same time; the initiator gets
// the sample, the responder gets an empty one. A direction sends `bwTrials` bursts of `bwIters` messages and keeps
// the best burst; it stops early once `maxSecondsPerDirection` has passed (at least one message), decided by
// the sender alone, so a throttled link
// costs a bounded time instead of stalling the whole check.
#pragma once

#include <cstdint>
#include <string>

#include "pf/bootstrap.hpp"
#include "pf/launcher_env.hpp"
#include "pf/registry.hpp"
#include "pf/result.hpp"

namespace pf::check {

struct PairOptions {
  uint64_t bwBytes = 4ull << 20;        ///< bandwidth message size
  int bwIters = 4;                      ///< messages per burst
  int bwTrials = 3;                     ///< bursts per direction; the best one counts
  int latIters = 50;                    ///< timed round trips of latency messages
  uint64_t latBytes = 8;
  double maxSecondsPerDirection = 1.0;  ///< time cap of one direction's bandwidth loop
};

/// The --quick settings: 3 bursts of 2 messages, 20 round trips, a 0.3 s cap per direction.
inline PairOptions quickPairOptions(PairOptions o) {
  o.bwIters = 2;
  o.bwTrials = 3;
  o.latIters = 20;
  o.maxSecondsPerDirection = 0.3;
  return o;
}

struct PairSample {
  double bwOutGbps = 0;   ///< initiator -> responder
  double bwInGbps = 0;    ///< responder -> initiator
  double latUs = 0;       ///< median half round trip
  int bwMessagesOut = 0, bwMessagesIn = 0;
};

/// key() is the registry key ("mpi", "nccl"), handed over by the registry (pf::Registered).
class PairEngine : public Registered {
 public:
  using Registered::Registered;  // a test double names itself: ScriptedEngine() : PairEngine("scripted")
  /// Joins the ranks (collective over every rank); called once before measure().
  virtual void init(Bootstrap& boot, const LauncherEnv& env) = 0;
  /// Measures the pair (this rank, `peer`). @param initiator true on exactly one of the two ranks
  virtual PairSample measure(int peer, bool initiator, const PairOptions& opts) = 0;
  /// Library and device description for the result document.
  virtual Json info() const = 0;
};

}  // namespace pf::check

#define PF_REGISTER_PAIR_ENGINE(Type, key) PF_REGISTER(::pf::check::PairEngine, Type, key)

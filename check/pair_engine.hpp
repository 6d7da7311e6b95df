// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A pair engine moves bytes between two ranks on different nodes: the MPI engine (host buffers, point-to-point
// MPI) and, in builds with NCCL, the NCCL engine (device buffers, ncclSend/ncclRecv). Engines self-register
// (PF_REGISTER_PAIR_ENGINE) under "mpi" and "nccl".
//
// An engine owns only its transport: buffers, sends and receives of N bytes, small control messages. What is
// measured and how (who sends first, bursts and the best one, the round-trip latency loop, the time cap, the
// result hand-over) is the pair protocol, written once in pair_protocol.hpp for every engine.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>

#include "pf/bootstrap.hpp"
#include "pf/error.hpp"
#include "pf/launcher_env.hpp"
#include "pf/registry.hpp"
#include "pf/result.hpp"
#include "rails.hpp"

namespace pf::check {

struct PairOptions {
  uint64_t bwBytes = 4ull << 20;  ///< bandwidth message size
  int bwIters = 4;                ///< messages per burst
  int bwTrials = 3;               ///< bursts per direction; the best one counts
  int latIters = 50;              ///< timed round trips of latency messages
  uint64_t latBytes = 8;
  double maxSecondsPerDirection = 1.0;  ///< time cap of one direction's bandwidth loop
  int confirmBackoffMs = 250;           ///< pause before suspect pairs are measured again (x4 each later pass)
  int confirmPasses = 2;                ///< passes of re-measuring: all suspects, then the remaining links
  std::string procRoot = "/";           ///< where procfs is read for the CPU load (tests: a quiet fake)
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
  double bwOutGbps = 0;  ///< initiator -> responder
  double bwInGbps = 0;   ///< responder -> initiator
  double latUs = 0;      ///< median half round trip
  int bwMessagesOut = 0, bwMessagesIn = 0;
};

/// key() is the registry key ("mpi", "nccl"), handed over by the registry (pf::Registered).
class PairEngine : public Registered {
 public:
  using Registered::Registered;  // a test double names itself: ScriptedEngine() : PairEngine("scripted")
  /// Joins the ranks (collective over every rank); called once before any pair.
  virtual void init(Bootstrap& boot, const LauncherEnv& env) = 0;
  /// Library and device description for the result document.
  virtual Json info() const = 0;

  // Every rail (rails.hpp). An engine that can send over one chosen NIC drives each of the plan's rails in turn;
  // until useRails is called, or after a plan with no rails, it uses its one default path (railCount() 0).

  /// True when useRails can work (checked before any rank starts).
  virtual bool canDriveRails() const { return false; }
  /// From now on, pairs run once per rail of `plan` (a collective call, after init).
  /// @throws UsageError when this engine cannot choose the NIC a message leaves by
  virtual void useRails(Bootstrap&, const RailPlan&) {
    throw UsageError("the " + key() + " pair engine cannot drive one rail at a time: drop --rails");
  }
  virtual int railCount() const { return 0; }
  /// The rail the next prepare() and messages use, 0 <= rail < railCount().
  virtual void selectRail(int) {}
  /// The NIC `rank` uses on `rail`, as its node named it ("mlx5_2 port 1 (ib2)").
  virtual std::string railNic(int, int) const { return ""; }

  // The transport. `peer` is the other rank of the pair (a world rank); both ranks of a pair make matching
  // calls in the same order, so a receive always knows the size of the message it gets.

  /// Readies a data buffer of at least `bytes` for a pair with `peer`; called by both ranks before its first
  /// message. @param initiator true on exactly one of the two ranks
  virtual void prepare(int peer, uint64_t bytes, bool initiator) = 0;
  /// Posts a send / a receive of `bytes` from / into the data buffer; complete() returns when every posted
  /// operation has completed. An engine may complete an operation already when it is posted.
  virtual void postSend(int peer, uint64_t bytes) = 0;
  virtual void postRecv(int peer, uint64_t bytes) = 0;
  virtual void complete() = 0;
  /// Blocking control messages of a few doubles (a burst's message count, a measured figure).
  virtual void sendValues(int peer, std::span<const double> values) = 0;
  virtual void recvValues(int peer, std::span<double> values) = 0;
  /// True when a completed send only means that its buffer may be reused (MPI: eager messages, bytes still in
  /// the socket buffers), so the protocol must stop a bandwidth clock on the receiver's acknowledgement (and takes
  /// off the acknowledgement's own trip, which it measures with control round trips).
  virtual bool sendCompletesBeforeDelivery() const { return false; }
  /// The clock the protocol measures with, in seconds. Real engines keep the host's steady clock (pf::Timer's);
  /// in-process test engines run on virtual time, so link speeds and the time cap can be scripted.
  virtual double clockSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
};

}  // namespace pf::check

#define PF_REGISTER_PAIR_ENGINE(Type, key) PF_REGISTER(::pf::check::PairEngine, Type, key)
